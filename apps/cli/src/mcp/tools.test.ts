import { operations as approvals } from '@partner-apis/approvals/internal';
import { operations as exposure } from '@partner-apis/exposure/internal';
import { operations as liability } from '@partner-apis/liability/internal';
import { operations as riskEngineering } from '@partner-apis/riskengineering/internal';
import { describe, expect, it } from 'vitest';
import { createCommandContext } from '../command-context.js';
import { operationServices } from '../commands/operations.js';
import { mcpTools } from './tools.js';

const io = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd() };
const tools = mcpTools(await operationServices(createCommandContext(io)));
const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;

describe('the tools of the operation tables', () => {
  it("follow the spec's x-mcp: a tool renamed, a tool left out", async () => {
    const [service] = await operationServices(createCommandContext(io));
    const [first, second] = Object.values(service!.operations);
    const renamed = { ...first!, mcp: { name: 'find_locations' } };
    const hidden = { ...second!, mcp: { hidden: true } };
    const named = mcpTools([{ ...service!, operations: { renamed, hidden } }]).map((t) => t.name);
    expect(named).toEqual(['find_locations']);
  });

  it('are one per operation of the four specs, named <service>_<resource>_<verb>', () => {
    expect(tools.map((t) => t.name)).toEqual([
      'exposure_locations_list',
      'exposure_statement_of_values_submit',
      'riskengineering_gradings_list',
      'riskengineering_locations_list',
      'liability_sellers_create',
      'liability_quotes_search',
      'liability_quotes_create',
      'liability_quotes_get',
      'approvals_approvals_list',
    ]);
    const tables = [exposure, riskEngineering, liability, approvals];
    expect(tools.map((t) => t.operation)).toEqual(tables.flatMap((t) => Object.values(t)));
  });

  it('take the query parameters with their constraints, and cursor and maxItems for paging', () => {
    const { inputSchema } = tool('exposure_locations_list');
    expect(inputSchema.properties).toEqual({
      modifiedSince: expect.objectContaining({ type: 'string', format: 'date' }),
      query: expect.objectContaining({ type: 'string' }),
      maxItems: expect.objectContaining({ type: 'integer', minimum: 1, default: 100 }),
      cursor: expect.objectContaining({ type: 'string' }),
    });
    expect(tool('approvals_approvals_list').inputSchema).toMatchObject({
      properties: { employeeNumber: { type: 'string', minLength: 1 } },
      required: ['employeeNumber'],
      additionalProperties: false,
    });
  });

  it('take path parameters as required arguments and a body where the spec has one', () => {
    expect(tool('liability_quotes_get').inputSchema.required).toEqual(['quoteId']);
    expect(tool('liability_sellers_create').inputSchema).toMatchObject({
      properties: { body: { type: 'object' } },
      required: ['body'],
    });
    // The body's own schema, from the spec, so a model can fill it in field by field.
    const { properties } = tool('liability_quotes_create').inputSchema as unknown as {
      properties: Record<string, { required?: string[] }>;
    };
    const body = properties.body ?? {};
    expect(body.required).toEqual(expect.arrayContaining(['productId', 'insureds']));
    expect(JSON.stringify(body)).not.toContain('$ref');
  });

  it('describe themselves from the spec, and mark what writes', () => {
    const create = tool('liability_sellers_create');
    expect(create.description).toContain('Creates a seller for which quotes can be requested.');
    expect(create.description).toContain('Changes data.');
    expect(create.inputSchema.properties).not.toHaveProperty('query');
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tool('liability_quotes_search').annotations.readOnlyHint).toBe(true);
    expect(tool('liability_quotes_search').listing).toBe(true);
    expect(tool('approvals_approvals_list').listing).toBe(false);
  });
});
