// @ts-check
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaTypes } from './schema-types.js';

const ref = (/** @type {string} */ name) => ({ $ref: `#/components/schemas/${name}` });

/** A spec whose schemas use each keyword that shapes a type. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Shapes', version: '1.0.0' },
  paths: {},
  components: {
    schemas: {
      Details: {
        type: 'object',
        description: 'What an item is about.',
        required: ['id'],
        properties: {
          id: { type: 'string', description: 'The identifier.' },
          note: { type: ['string', 'null'] },
          score: { type: 'integer', default: 0 },
        },
      },
      Item: {
        type: 'object',
        properties: {
          details: ref('Details'),
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
          grid: { type: 'array', items: { type: 'array', items: ref('Details') } },
          extra: { type: 'object', properties: { depth: { type: 'number' } } },
          counts: { type: 'object', additionalProperties: { type: 'integer' } },
          'x-rate': { type: 'number', nullable: true },
        },
      },
      Derived: {
        allOf: [
          ref('Item'),
          { type: 'object', required: ['kind'], properties: { kind: { const: 'derived' } } },
        ],
      },
      Narrowed: {
        allOf: [ref('Details'), { type: 'object', properties: { id: { enum: ['x'] } } }],
      },
      Open: {
        type: 'object',
        additionalProperties: true,
        properties: { name: { type: 'string' } },
      },
      Empty: { type: 'object' },
      Anything: {},
      Choice: { oneOf: [ref('Details'), ref('Item')] },
      Either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      Level: { type: ['string', 'null'], enum: ['low', 'high'] },
      Mixed: {
        type: 'object',
        properties: { shared: { type: 'string' } },
        oneOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'boolean' } } },
        ],
      },
      Patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
    },
  },
};

const { types, check } = schemaTypes(document);
const source = types.join('\n');

const header = "import type { components } from './openapi.js';";

/**
 * The diagnostics of each file of named types, compiled beside openapi-typescript's types of the
 * spec in one program.
 * @param {Record<string, string>} files name → the named types
 */
async function compile(files) {
  const dir = await mkdtemp(join(tmpdir(), 'schema-types-'));
  try {
    await writeFile(
      join(dir, 'openapi.ts'),
      astToString(await openapiTS(/** @type {any} */ (document))),
    );
    for (const [name, named] of Object.entries(files)) {
      await writeFile(join(dir, `${name}.ts`), [header, named, ...check].join('\n'));
    }
    const program = ts.createProgram(
      Object.keys(files).map((name) => join(dir, `${name}.ts`)),
      {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        lib: ['lib.es2022.d.ts'],
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
      },
    );
    return Object.fromEntries(
      Object.keys(files).map((name) => [
        name,
        ts
          .getPreEmitDiagnostics(program, program.getSourceFile(join(dir, `${name}.ts`)))
          .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      ]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @type {Record<string, string[]>} */
let diagnostics = {};
beforeAll(async () => {
  // A record of any named object type goes where code takes records generically.
  const generic = 'type Generic = Assignable<Details | Derived | Open, Record<string, unknown>>;';
  diagnostics = await compile({
    exact: [source, generic].join('\n'),
    drifted: source.replace('  id: string;', '  id?: string;'),
  });
}, 60_000);

describe('schemaTypes', () => {
  it('names the schemas a field refers to, at any depth, documented by their descriptions', () => {
    expect(source).toContain(
      '/**\n * What an item is about.\n */\nexport type Details = {\n  /**\n   * The identifier.\n   */\n  id: string;\n  note?: string | null;\n  score: number;\n};',
    );
    expect(source).toContain('  details?: Details;\n');
    expect(source).toContain('  tags?: ("a" | "b")[];\n');
    expect(source).toContain('  grid?: Details[][];\n');
    expect(source).toContain('  extra?: {\n    depth?: number;\n  };\n');
    expect(source).toContain('  counts?: {\n    [key: string]: number;\n  };\n');
    expect(source).toContain('  "x-rate"?: number | null;\n');
    expect(source).not.toContain('undefined');
  });

  it('joins an allOf of named schemas and inline properties, required ones included', () => {
    expect(source).toContain('export type Derived = Item & {\n  kind: "derived";\n};');
    expect(source).toContain('export type Narrowed = Details & {\n  id?: "x";\n};');
  });

  it('spells every other shape as openapi-typescript does', () => {
    expect(source).toContain(
      'export type Open = {\n  name?: string;\n} & {\n  [key: string]: unknown;\n};',
    );
    expect(source).toContain('export type Empty = Record<string, never>;');
    expect(source).toContain('export type Anything = unknown;');
    expect(source).toContain('export type Choice = Details | Item;');
    expect(source).toContain('export type Either = string | number;');
    expect(source).toContain('export type Level = "low" | "high" | null;');
    expect(source).toContain(
      'export type Mixed = {\n  shared?: string;\n} & ({\n  a?: string;\n} | {\n  b?: boolean;\n});',
    );
  });

  it('leaves a schema with a keyword it does not spell as openapi-typescript types it', () => {
    expect(source).toContain('export type Patterned = components["schemas"]["Patterned"];');
    expect(check.join('\n')).not.toContain('Patterned');
  });

  it('leaves every schema so where a discriminator rewrites the schemas it reaches', () => {
    const tagged = {
      oneOf: [ref('Details'), ref('Item')],
      discriminator: { propertyName: 'kind' },
    };
    const schemas = { ...document.components.schemas, Tagged: tagged };
    const aliased = schemaTypes({ ...document, components: { schemas } });
    expect(aliased.types).toContain('export type Details = components["schemas"]["Details"];');
    expect(aliased.check).toEqual([]);
  });

  it('spells exactly the types openapi-typescript gives, which generic record code takes', () => {
    expect(check).toContain(
      '  Assignable<Item, Schemas["Item"]>, Assignable<Schemas["Item"], Item>,',
    );
    expect(diagnostics.exact).toEqual([]);
  });

  it('fails to compile where a named type drifts from openapi-typescript', () => {
    expect(diagnostics.drifted?.join('\n')).toContain('does not satisfy the constraint');
  });
});
