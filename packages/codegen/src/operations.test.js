// @ts-check
import { describe, expect, it } from 'vitest';
import { describeSpec } from '@partner-apis/spec-model';
import { renderOperations, tableEntry } from './operations.js';

/**
 * The table entries of a document by operationId, as `operations.ts` writes them.
 * @param {Record<string, unknown>} document
 */
function describeOperations(document) {
  const entries = describeSpec(document).operations.map((op) => [op.operationId, tableEntry(op)]);
  return Object.fromEntries(entries);
}

/** A bundled document with one paged read whose answer is `answer`. */
/** @param {Record<string, unknown>} answer */
function document(answer) {
  return {
    openapi: '3.1.0',
    info: { title: 'Tiny', version: '1.0.0', 'x-rate-limit-tiers': { bronze: 1 } },
    security: [{ oauth: ['Api', 'Api.Things'] }, { key: [] }],
    paths: {
      '/things/{group}': {
        parameters: [{ name: 'group', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'listThings',
          summary: 'List things',
          parameters: [
            { $ref: '#/components/parameters/Limit' },
            {
              name: 'offset',
              in: 'query',
              'x-paging': 'offset',
              'x-upstream-gap': 'unit not shown',
              schema: { type: 'integer', minimum: 0 },
            },
            {
              name: 'since',
              in: 'query',
              schema: { type: 'string', format: 'date', examples: ['x'] },
            },
          ],
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: answer } } },
            401: { description: 'no' },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth: { type: 'oauth2', flows: {} },
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      },
      parameters: {
        Limit: {
          name: 'limit',
          in: 'query',
          'x-paging': 'limit',
          schema: { type: 'integer', minimum: 1, maximum: 1024, default: 128 },
        },
      },
      schemas: {
        Thing: { type: 'object', 'x-record-key': 'thingId' },
        Kind: { type: 'string', enum: ['a', 'b'] },
        Product: { type: 'string', default: 'P1' },
      },
    },
  };
}

const things = { type: 'array', items: { $ref: '#/components/schemas/Thing' } };

describe('the table of operations', () => {
  it('gives method, path, parameters with their constraints, and what pages', () => {
    const [listThings] = Object.values(describeOperations(document(things)));
    expect(listThings).toEqual({
      operationId: 'listThings',
      resource: 'things',
      verb: 'list',
      method: 'GET',
      path: '/things/{group}',
      summary: 'List things',
      arguments: [
        { in: 'path', name: 'group' },
        { in: 'params', required: false },
      ],
      parameters: [
        { name: 'group', in: 'path', required: true, type: 'string' },
        {
          name: 'limit',
          in: 'query',
          required: false,
          type: 'integer',
          minimum: 1,
          maximum: 1024,
          default: 128,
          paging: 'limit',
        },
        {
          name: 'offset',
          in: 'query',
          required: false,
          type: 'integer',
          minimum: 0,
          paging: 'offset',
          assumed: true,
        },
        { name: 'since', in: 'query', required: false, type: 'string', format: 'date' },
      ],
      response: { kind: 'json', mediaType: 'application/json', type: 'array' },
      paging: { pageSize: 128, records: null, itemType: 'object', recordKey: 'thingId' },
      security: [['oauth'], ['key']],
    });
  });

  it.each([
    ['getQuote', undefined, 'quotes', 'get'],
    ['createSeller', undefined, 'sellers', 'create'],
    ['listInspections', undefined, 'inspections', 'list'],
    ['submitStatementOfValues', undefined, 'statementOfValues', 'submit'],
    ['readCompany', undefined, 'companies', 'read'],
    ['listRiskLocations', 'locations.list', 'locations', 'list'],
  ])('names %s (x-client-method %s) %s.%s()', (operationId, named, resource, verb) => {
    const doc = document(things);
    const get = /** @type {Record<string, any>} */ (doc.paths['/things/{group}']).get;
    get.operationId = operationId;
    if (named !== undefined) get['x-client-method'] = named;
    expect(describeOperations(doc)[operationId]).toMatchObject({ resource, verb });
  });

  it('refuses an operationId it cannot name, and a bad x-client-method', () => {
    const doc = document(things);
    const get = /** @type {Record<string, any>} */ (doc.paths['/things/{group}']).get;
    get.operationId = '2-things';
    expect(() => describeOperations(doc)).toThrow('name it with x-client-method');
    get['x-client-method'] = 'things';
    expect(() => describeOperations(doc)).toThrow('x-client-method must be <resource>.<verb>');
  });
});

describe('the other runtime facts', () => {
  it('renders the oauth2 scopes, the tiers and the defaults and enums of named schemas', () => {
    const doc = document(things);
    const source = renderOperations(doc);
    expect(source).toContain('export const listThings = {');
    expect(source).toContain('as const satisfies OperationDescription;');
    expect(source).toContain('export const rateLimitTiers = {\n  bronze: 1,\n} as const;');
    expect(source).toContain('export const oauth2Scopes = ["Api", "Api.Things"] as const;');
    expect(source).toContain('export const operations = { listThings } as const;');
    expect(source).toContain(
      'export const service = { operations, securitySchemes, tracingHeaders } as const satisfies ServiceDescription;',
    );
    expect(source).toContain(
      '  key: {\n    type: "apiKey",\n    in: "header",\n    name: "X-Key",\n  },',
    );
    expect(source).toContain('  Product: {\n    default: "P1",\n  },');
    expect(renderOperations(doc, { standalone: true })).not.toContain('OperationDescription');
  });

  it('renders the tiers of a spec without operations, importing nothing', () => {
    const shared = { ...document(things), paths: {} };
    const source = renderOperations(shared);
    expect(source).not.toContain('import ');
    expect(source).not.toContain('OperationDescription');
    expect(source).toContain('export const rateLimitTiers = {\n  bronze: 1,\n} as const;');
  });
});
