// @ts-check
import { describe, expect, it } from 'vitest';
import { defaultPageSize, describeSpec, responseSchema } from './index.js';

const things = { type: 'array', items: { $ref: '#/components/schemas/Thing' } };

/**
 * A bundled document with one paged read under a path parameter, whose answer is `answer`.
 * @param {Record<string, unknown>} [answer]
 */
function document(answer = things) {
  return {
    openapi: '3.1.0',
    info: { title: 'Tiny', version: '1.0.0', 'x-rate-limit-tiers': { bronze: 1, gold: 100 } },
    security: [{ oauth: ['Api', 'Api.Things'] }, { key: [] }],
    paths: {
      '/groups/{group}/things': {
        parameters: [
          { name: 'group', in: 'path', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'string' } },
        ],
        get: {
          operationId: 'listThings',
          summary: ' List things ',
          deprecated: true,
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
              name: 'modifiedSince',
              in: 'query',
              'x-sync': 'watermark',
              schema: { type: 'string', format: 'date' },
            },
          ],
          responses: {
            '2XX': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: answer,
                  examples: { one: { value: [{ thingId: 'T-1', modifiedDate: '2026-01-02' }] } },
                },
              },
            },
            '4XX': {
              description: 'no',
              content: { 'application/problem+json': { schema: { type: 'object' } } },
            },
            default: { description: 'other' },
          },
        },
      },
      '/groups/{group}/things/{thing}': {
        put: {
          operationId: 'replaceThing',
          security: [{ query: [] }],
          parameters: [
            { name: 'thing', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'group', in: 'path', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          responses: { 204: { description: 'done', 'x-optional-body': true } },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth: { type: 'oauth2', flows: {} },
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
        query: { type: 'apiKey', in: 'query', name: 'apiKey' },
      },
      parameters: {
        Limit: {
          name: 'limit',
          in: 'query',
          description: ' Records per call. ',
          'x-paging': 'limit',
          schema: { type: 'integer', minimum: 1, maximum: 1024, default: 128 },
        },
      },
      schemas: {
        Thing: { type: 'object', 'x-record-key': 'thingId', properties: { thingId: {} } },
        Kind: { type: 'string', enum: ['a', 'b'] },
        Product: { type: 'string', default: 'P1' },
      },
    },
  };
}

/** @param {Record<string, unknown>} doc */
function listThings(doc) {
  const found = describeSpec(doc).operations.find((op) => op.operationId === 'listThings');
  if (found === undefined) throw new Error('listThings is not described');
  return found;
}

describe('describeSpec', () => {
  it('reads parameters in order, the operation replacing a path item one of its name', () => {
    const op = listThings(document());
    expect(op).toMatchObject({
      method: 'GET',
      path: '/groups/{group}/things',
      summary: 'List things',
      deprecated: true,
      clientMethod: { resource: 'things', verb: 'list' },
    });
    expect(op.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['group', 'path', true],
      ['limit', 'query', false],
      ['offset', 'query', false],
      ['modifiedSince', 'query', false],
    ]);
    expect(op.parameters[1]).toMatchObject({
      constraints: { type: 'integer', minimum: 1, maximum: 1024, default: 128 },
      description: 'Records per call.',
      paging: 'limit',
      assumed: false,
    });
    expect(op.parameters[2]).toMatchObject({ paging: 'offset', assumed: true });
  });

  it('says how a read pages, where its records are, their key, watermark and sync', () => {
    expect(listThings(document()).paging).toEqual({
      limit: 'limit',
      defaultPageSize: 128,
      position: { name: 'offset', unit: 'offset', base: 0 },
      records: null,
      item: { $ref: '#/components/schemas/Thing' },
      itemIsObject: true,
      itemExamples: [{ thingId: 'T-1', modifiedDate: '2026-01-02' }],
      recordKey: 'thingId',
      watermark: { parameter: 'modifiedSince', field: 'modifiedDate' },
      syncable: true,
    });
  });

  it('takes a page index from its minimum, and refuses what it cannot page', () => {
    const doc = document();
    const get = /** @type {Record<string, any>} */ (doc.paths['/groups/{group}/things']).get;
    get.parameters[1] = { ...get.parameters[1], 'x-paging': 'page', schema: { minimum: 1 } };
    expect(listThings(doc).paging?.position).toEqual({ name: 'offset', unit: 'page', base: 1 });
    get.parameters[1]['x-paging'] = 'cursor';
    expect(() => describeSpec(doc)).toThrow(
      'GET /groups/{group}/things: parameter offset: x-paging must be limit, offset, page',
    );
    get.parameters.splice(1, 1);
    expect(() => describeSpec(doc)).toThrow(
      'a paged read needs an x-paging: limit and an x-paging: offset or page parameter',
    );
  });

  it('finds the records in the one array property of an envelope, or the one x-records names', () => {
    const envelope = { type: 'object', properties: { items: things, total: { type: 'integer' } } };
    expect(listThings(document(envelope)).paging).toMatchObject({ records: 'items' });
    const two = {
      type: 'object',
      'x-records': 'data',
      properties: { data: things, links: { type: 'array', items: { type: 'string' } } },
    };
    expect(listThings(document(two)).paging).toMatchObject({
      records: 'data',
      recordKey: 'thingId',
    });
    const unnamed = { ...two, 'x-records': undefined };
    expect(() => describeSpec(document(unnamed))).toThrow(
      'GET /groups/{group}/things: a paged answer must be an array or an object with one array property',
    );
  });

  it('syncs only a read with both a watermark and a record key', () => {
    const doc = document();
    /** @type {Record<string, unknown>} */ (doc.components.schemas).Thing = {
      type: 'object',
      properties: { modifiedDate: {} },
    };
    expect(listThings(doc).paging).toMatchObject({
      watermark: { parameter: 'modifiedSince', field: 'modifiedDate' },
      syncable: false,
    });
  });

  it('orders a method’s arguments: path parameters as the path names them, body, query', () => {
    const put = describeSpec(document()).operations.find((op) => op.operationId === 'replaceThing');
    expect(put?.arguments).toEqual([
      { in: 'path', name: 'group' },
      { in: 'path', name: 'thing' },
      { in: 'body', required: false },
    ]);
    expect(put?.body).toMatchObject({
      mediaType: 'application/json',
      kind: 'json',
      type: 'object',
    });
    expect(put?.write).toBe(true);
    expect(put?.success).toEqual({
      status: 204,
      key: '204',
      kind: 'none',
      bodyOptional: true,
      schema: undefined,
      examples: [],
    });
    expect(listThings(document()).arguments).toEqual([
      { in: 'path', name: 'group' },
      { in: 'params', required: false },
    ]);
    expect(listThings(document()).write).toBe(false);
  });

  it('gives the keys and scopes of the security in force, the operation’s own first', () => {
    const [list, put] = describeSpec(document()).operations;
    expect(list?.security).toEqual({
      requirements: [['oauth'], ['key']],
      apiKeys: [{ scheme: 'key', in: 'header', name: 'X-Key' }],
      oauth2Scopes: ['Api', 'Api.Things'],
    });
    expect(put?.security).toEqual({
      requirements: [['query']],
      apiKeys: [{ scheme: 'query', in: 'query', name: 'apiKey' }],
      oauth2Scopes: [],
    });
    expect(describeSpec(document()).securitySchemes).toEqual({
      oauth: { type: 'oauth2', scopes: [] },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      query: { type: 'apiKey', in: 'query', name: 'apiKey' },
    });
  });

  it.each([
    [{ style: 'spaceDelimited' }, ' '],
    [{ style: 'form', explode: false }, ','],
    [{ style: 'pipeDelimited' }, '|'],
  ])('gives the separator a form field encoded as %j joins its values with', (encoding, sep) => {
    const doc = document();
    /** @type {Record<string, any>} */ (doc.paths)['/token'] = {
      post: {
        operationId: 'requestToken',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object' },
              encoding: { scope: encoding, other: { style: 'form' } },
            },
          },
        },
        responses: { 200: { description: 'ok' } },
      },
    };
    const token = describeSpec(doc).operations.find((op) => op.operationId === 'requestToken');
    expect(token?.body).toEqual({
      required: true,
      mediaType: 'application/x-www-form-urlencoded',
      kind: 'form',
      type: 'object',
      separators: { scope: sep },
      schema: { type: 'object' },
    });
  });

  it('gives the tiers, the document’s scopes and the defaults and enums of named schemas', () => {
    const spec = describeSpec(document());
    expect(spec.rateLimitTiers).toEqual({ bronze: 1, gold: 100 });
    expect(spec.oauth2Scopes).toEqual(['Api', 'Api.Things']);
    expect(spec.schemaValues).toEqual({ Kind: { enum: ['a', 'b'] }, Product: { default: 'P1' } });
  });

  it('names the operation that has no operationId or a bad x-client-method', () => {
    const doc = document();
    const put = /** @type {Record<string, any>} */ (doc.paths['/groups/{group}/things/{thing}'])
      .put;
    put['x-client-method'] = 'things';
    expect(() => describeSpec(doc)).toThrow(
      'PUT /groups/{group}/things/{thing}: x-client-method must be <resource>.<verb>',
    );
    put['x-client-method'] = undefined;
    put.operationId = '2fa';
    expect(() => describeSpec(doc)).toThrow(
      'PUT /groups/{group}/things/{thing}: operationId 2fa gives no <resource>.<verb>; name it with x-client-method',
    );
    delete put.operationId;
    expect(() => describeSpec(doc)).toThrow(
      'PUT /groups/{group}/things/{thing} has no operationId',
    );
  });
});

/**
 * A document of one operation, to see how the model reads a part of it.
 * @param {Record<string, unknown>} operation
 * @param {Record<string, unknown>} [components]
 */
function oneOperation(operation, components = {}) {
  return describeSpec({
    openapi: '3.1.0',
    info: { title: 'One', version: '1' },
    paths: { '/files/{fileId}': { post: { operationId: 'uploadFile', ...operation } } },
    components,
  }).operations[0];
}

describe('media types', () => {
  const form = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      scan: { type: 'string', format: 'binary' },
      pages: { type: 'array', items: { type: 'string', contentMediaType: 'image/png' } },
    },
  };

  it('reads a multipart body: its files by format or contentMediaType, and its part types', () => {
    const op = oneOperation({
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: form,
            encoding: { scan: { contentType: 'image/tiff' } },
          },
        },
      },
    });
    expect(op?.body).toMatchObject({
      kind: 'multipart',
      mediaType: 'multipart/form-data',
      files: ['scan', 'pages'],
      partTypes: { scan: 'image/tiff' },
    });
  });

  it.each([
    ['application/json', 'json'],
    ['application/problem+json', 'json'],
    ['application/x-www-form-urlencoded', 'form'],
    ['text/csv; charset=utf-8', 'text'],
    ['application/octet-stream', 'binary'],
    ['image/png', 'binary'],
  ])('writes and reads %s as %s', (type, kind) => {
    const op = oneOperation({
      requestBody: { content: { [type]: { schema: { type: 'string' } } } },
      responses: { 200: { description: 'ok', content: { [type]: {} } } },
    });
    expect(op?.body?.kind).toBe(kind);
    expect(op?.success).toMatchObject({ kind, mediaType: type });
  });

  it('prefers the JSON media of a body or answer that lists several', () => {
    const content = { 'application/xml': {}, 'application/json': { schema: { type: 'object' } } };
    const op = oneOperation({
      requestBody: { content },
      responses: { 200: { description: 'ok', content } },
    });
    expect(op?.body).toMatchObject({ kind: 'json', type: 'object' });
    expect(op?.success).toMatchObject({ kind: 'json', type: 'object' });
  });
});

describe('parameters', () => {
  it('puts every parameter but the path and the tracing ones into the params argument', () => {
    const op = oneOperation({
      parameters: [
        { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'X-Marketplace-Id', in: 'header', schema: { type: 'string', pattern: '^M' } },
        { name: 'session', in: 'cookie', required: true, schema: { type: 'string' } },
        { name: 'X-Trace', in: 'header', 'x-tracing': 'request-id', schema: { type: 'string' } },
      ],
      responses: {},
    });
    expect(op?.arguments).toEqual([
      { in: 'path', name: 'fileId' },
      { in: 'params', required: true },
    ]);
    expect(op?.parameters.map((p) => [p.name, p.in, p.role])).toEqual([
      ['fileId', 'path', undefined],
      ['X-Marketplace-Id', 'header', undefined],
      ['session', 'cookie', undefined],
      ['X-Trace', 'header', 'request-id'],
    ]);
  });

  it('refuses a tracing role it does not know, or on a parameter that is not a header', () => {
    const parameter = { name: 'trace', in: 'query', 'x-tracing': 'request-id' };
    expect(() => oneOperation({ parameters: [parameter], responses: {} })).toThrow(
      'POST /files/{fileId}: parameter trace: x-tracing must be request-id or conversation-id on a header (got request-id in query)',
    );
  });
});

describe('security schemes', () => {
  /** @param {Record<string, unknown>} scheme */
  const schemeOf = (scheme) =>
    describeSpec({
      openapi: '3.1.0',
      info: { title: 'One', version: '1' },
      security: [{ it: [] }],
      paths: { '/a': { get: { operationId: 'getA', responses: {} } } },
      components: { securitySchemes: { it: scheme } },
    }).securitySchemes.it;

  it.each([
    [
      { type: 'apiKey', in: 'cookie', name: 'key' },
      { type: 'apiKey', in: 'cookie', name: 'key' },
    ],
    [
      { type: 'http', scheme: 'Basic' },
      { type: 'http', scheme: 'basic' },
    ],
    [
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      { type: 'http', scheme: 'bearer' },
    ],
    [
      {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: 'https://a.test/token', scopes: { read: 'r' } } },
      },
      { type: 'oauth2', tokenUrl: 'https://a.test/token', scopes: ['read'] },
    ],
  ])('reads %j', (scheme, model) => {
    expect(schemeOf(scheme)).toEqual(model);
  });

  it('names a scheme a client cannot apply', () => {
    expect(() => schemeOf({ type: 'http', scheme: 'digest' })).toThrow(
      'security scheme it: a client applies apiKey, http basic or bearer, and oauth2 client credentials (got http digest)',
    );
  });
});

describe('x-mcp', () => {
  it('names or hides the MCP tool of an operation, and refuses what it cannot mean', () => {
    const doc = document();
    const get = /** @type {Record<string, any>} */ (doc.paths)['/groups/{group}/things'].get;
    expect(listThings(doc).mcp).toBeUndefined();
    get['x-mcp'] = { name: 'find_things' };
    expect(listThings(doc).mcp).toEqual({ name: 'find_things', hidden: undefined });
    get['x-mcp'] = { hidden: 'yes' };
    expect(() => describeSpec(doc)).toThrow('x-mcp must be');
  });
});

describe('defaultPageSize', () => {
  it.each([
    [{ default: 128, maximum: 1024 }, 128],
    [{ maximum: 1024 }, 100],
    [{ maximum: 50 }, 50],
    [{}, 100],
  ])('of a limit %j is %i', (limit, size) => {
    expect(defaultPageSize(limit)).toBe(size);
  });
});

describe('responseSchema', () => {
  it('takes the exact status, then its class, then default', () => {
    const op = listThings(document());
    expect(responseSchema(op, 200)).toBe(things);
    expect(responseSchema(op, 404)).toEqual({ type: 'object' });
    expect(responseSchema(op, 500)).toBeUndefined();
    expect(responseSchema({ ...op, responses: new Map() }, 500)).toBeNull();
  });
});
