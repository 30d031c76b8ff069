// @ts-check
import { describe, expect, it } from 'vitest';
import { renderResources } from './resources.js';

/** A bundled document with a paged read, a read by id and a create of one resource. */
function document() {
  const limit = { name: 'limit', in: 'query', 'x-paging': 'limit', schema: { type: 'integer' } };
  const offset = { name: 'offset', in: 'query', 'x-paging': 'offset', schema: { type: 'integer' } };
  const ok = (/** @type {unknown} */ schema) => ({
    200: { description: 'ok', content: { 'application/json': { schema } } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Tiny', version: '1.0.0' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          summary: 'List things',
          parameters: [limit, offset],
          responses: ok({ type: 'array', items: { type: 'object' } }),
        },
        post: {
          operationId: 'createThing',
          summary: 'Create a thing',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          responses: ok({ type: 'object' }),
        },
      },
      '/groups/{groupId}/things/{thingId}': {
        get: {
          operationId: 'getThing',
          summary: 'Read one thing',
          description: 'The thing of a group.',
          parameters: [
            { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'groupId', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'fields', in: 'query', schema: { type: 'string' } },
          ],
          responses: ok({ type: 'object' }),
        },
      },
    },
  };
}

describe('renderResources', () => {
  const source = renderResources(document());

  it('gives a paged read list() and page() with named options, beside the resource’s other methods', () => {
    expect(source).toContain(
      '  readonly things: { list(options?: ThingsListOptions): Paginated<RecordOf<Operations["listThings"]>>; page(options?: ThingsPageOptions): ApiPromise<RecordsPage<RecordOf<Operations["listThings"]>>> } & {',
    );
    expect(source).toContain(
      'export interface ThingsPageOptions extends ThingsFilters, CallOptions {',
    );
    expect(source).toContain(
      '      ...pagedRead<Resources["things"]>(client, listThings, paging),',
    );
  });

  it('orders path parameters as the path names them, then the body, the query, the options', () => {
    expect(source).toContain(
      '    get(groupId: number, thingId: string, query?: ThingsGetQuery, options?: CallOptions): ApiPromise<ResponseBodyOf<Operations["getThing"]>>;',
    );
    expect(source).toContain(
      '    create(body: RequestBodyOf<Operations["createThing"]>, options?: CallOptions): ApiPromise<ResponseBodyOf<Operations["createThing"]>>;',
    );
  });

  it('names each type the spec names: a record, a body and an answer of a component schema', () => {
    const doc = /** @type {Record<string, any>} */ (document());
    doc.components = {
      schemas: {
        Thing: {
          type: 'object',
          description: 'One thing.',
          properties: { kind: { $ref: '#/components/schemas/Kind', description: 'Its kind.' } },
        },
        Kind: { enum: ['a'] },
      },
    };
    const thing = { $ref: '#/components/schemas/Thing' };
    doc.paths['/things'].get.responses[200].content['application/json'].schema = {
      type: 'array',
      items: thing,
    };
    doc.paths['/things'].post.requestBody.content['application/json'].schema = thing;
    doc.paths['/things'].post.deprecated = true;
    const named = renderResources(doc);
    expect(named).toContain(
      '/**\n * One thing.\n */\nexport type Thing = {\n  /**\n   * Its kind.\n   */\n  kind?: Kind;\n};',
    );
    expect(named).toContain('export type Kind = "a";');
    expect(named).toContain(
      '  Assignable<Thing, Schemas["Thing"]>, Assignable<Schemas["Thing"], Thing>,',
    );
    expect(named).toContain('list(options?: ThingsListOptions): Paginated<Thing>');
    expect(named).toContain('create(body: Thing, options?: CallOptions)');
    expect(named).toContain('@deprecated The upstream marks this operation deprecated.');
  });

  it('documents each method from the spec, with an example', () => {
    expect(source).toContain('     * Read one thing.\n     *\n     * The thing of a group.');
    expect(source).toContain('     * `GET /groups/{groupId}/things/{thingId}`');
    expect(source).toContain(
      '     * const result = await client.things.get(groupId, thingId, { … });',
    );
  });

  it('refuses two operations that would be the same method', () => {
    const doc = document();
    /** @type {Record<string, any>} */ (doc.paths)['/other'] = {
      get: { ...doc.paths['/groups/{groupId}/things/{thingId}'].get, operationId: 'getThings' },
    };
    expect(() => renderResources(doc)).toThrow(
      'getThings and getThing are both things.get(): name one with x-client-method',
    );
  });
});
