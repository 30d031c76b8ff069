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
      '  readonly things: { list(options?: ThingsListOptions): Paginated<Operations["listThings"]["responses"][200]["content"]["application/json"][number]>; page(options?: ThingsPageOptions): ApiPromise<RecordsPage<Operations["listThings"]["responses"][200]["content"]["application/json"][number]>> } & {',
    );
    expect(source).toContain(
      'export interface ThingsPageOptions extends ThingsFilters, CallOptions {',
    );
    expect(source).toContain('      ...pagedRead(client, listThings, paging),');
  });

  it('orders path parameters as the path names them, then the body, the params, the options', () => {
    expect(source).toContain(
      '    get(groupId: number, thingId: string, params?: ThingsGetParams, options?: CallOptions): ApiPromise<Operations["getThing"]["responses"][200]["content"]["application/json"]>;',
    );
    expect(source).toContain(
      '    create(body: NonNullable<Operations["createThing"]["requestBody"]>["content"]["application/json"], options?: CallOptions): ApiPromise<Operations["createThing"]["responses"][200]["content"]["application/json"]>;',
    );
  });

  it('puts query, header and cookie parameters in the params type, under the spec’s names', () => {
    const doc = /** @type {Record<string, any>} */ (document());
    doc.paths['/groups/{groupId}/things/{thingId}'].get.parameters.push(
      { name: 'X-Marketplace-Id', in: 'header', schema: { type: 'string', pattern: '^M' } },
      { name: 'session', in: 'cookie', required: true, schema: { type: 'string' } },
      { name: 'X-Trace', in: 'header', 'x-tracing': 'request-id', schema: { type: 'string' } },
    );
    const named = renderResources(doc);
    const params = named.slice(named.indexOf('export interface ThingsGetParams {'));
    expect(params.slice(0, params.indexOf('}'))).toContain('  "X-Marketplace-Id"?: string;');
    expect(params.slice(0, params.indexOf('}'))).toContain('  "session": string;');
    expect(params.slice(0, params.indexOf('}'))).not.toContain('X-Trace');
    expect(named).toContain('get(groupId: number, thingId: string, params: ThingsGetParams,');
  });

  it('types bodies and answers by media type: files, text, bytes and no body', () => {
    const doc = /** @type {Record<string, any>} */ (document());
    doc.paths['/scans'] = {
      post: {
        operationId: 'uploadScan',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  scan: { type: 'string', format: 'binary' },
                  title: { type: 'string' },
                },
              },
            },
          },
        },
        responses: { 200: { description: 'ok', content: { 'image/png': {} } } },
      },
      put: {
        operationId: 'replaceScan',
        requestBody: { content: { 'application/octet-stream': {} } },
        responses: { 200: { description: 'ok', content: { 'text/plain': {} } } },
      },
      delete: { operationId: 'deleteScan', responses: { 204: { description: 'gone' } } },
    };
    const typed = renderResources(doc);
    expect(typed).toContain(
      'upload(body: NonNullable<Operations["uploadScan"]["requestBody"]>["content"]["multipart/form-data"], options?: CallOptions): ApiPromise<Blob>;',
    );
    expect(typed).toContain(
      'replace(body?: Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, options?: CallOptions): ApiPromise<string>;',
    );
    expect(typed).toContain('delete(options?: CallOptions): ApiPromise<void>;');
  });

  it('types the records of a paged read under a parent exactly, where the spec names no schema', () => {
    const doc = /** @type {Record<string, any>} */ (document());
    doc.paths['/groups/{groupId}/rows'] = {
      get: {
        operationId: 'listGroupRows',
        parameters: [
          { name: 'groupId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'limit', in: 'query', 'x-paging': 'limit', schema: { type: 'integer' } },
          { name: 'offset', in: 'query', 'x-paging': 'offset', schema: { type: 'integer' } },
        ],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { rows: { type: 'array', items: { type: 'object' } } },
                },
              },
            },
          },
        },
      },
    };
    expect(renderResources(doc)).toContain(
      'list(groupId: string, options?: GroupRowsListOptions): Paginated<NonNullable<Operations["listGroupRows"]["responses"][200]["content"]["application/json"]["rows"]>[number]>',
    );
  });

  it('names a schema that would shadow a global <Name>Model', () => {
    const doc = /** @type {Record<string, any>} */ (document());
    doc.components = {
      schemas: {
        Date: { type: 'string', format: 'date' },
        Error: { type: 'object', properties: { when: { $ref: '#/components/schemas/Date' } } },
      },
    };
    doc.paths['/things'].post.requestBody.content['application/json'].schema = {
      $ref: '#/components/schemas/Error',
    };
    const named = renderResources(doc);
    expect(named).toContain('export type DateModel = string;');
    expect(named).toContain('export type ErrorModel = {\n  when?: DateModel;\n};');
    expect(named).toContain('create(body: ErrorModel, options?: CallOptions)');
    expect(named).not.toMatch(/export type (Date|Error) /);
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

  it('parts two operations that ask for the same method, the later by its operationId', () => {
    const doc = document();
    /** @type {Record<string, any>} */ (doc.paths)['/other/{groupId}/{thingId}'] = {
      get: { ...doc.paths['/groups/{groupId}/things/{thingId}'].get, operationId: 'get-things' },
    };
    const parted = renderResources(doc);
    expect(parted).toContain(
      'getThings(groupId: number, thingId: string, params?: ThingsGetThingsParams,',
    );
    expect(parted).toContain('      getThings: operationMethod(client, getThings),');
    expect(parted).toContain('ApiPromise<Operations["get-things"]["responses"]');
  });
});
