// @ts-check
import { describe, expect, it } from 'vitest';
import {
  describeOperations,
  describeSchemaValues,
  oauth2Scopes,
  renderOperations,
} from './operations.js';

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

describe('describeOperations', () => {
  it('describes method, path, parameters with their constraints, and what pages', () => {
    const [listThings] = Object.values(describeOperations(document(things)));
    expect(listThings).toEqual({
      operationId: 'listThings',
      resource: 'things',
      verb: 'list',
      method: 'GET',
      path: '/things/{group}',
      summary: 'List things',
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
      response: { type: 'array', records: null, itemType: 'object', recordKey: 'thingId' },
      apiKeys: [{ scheme: 'key', in: 'header', name: 'X-Key' }],
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
    get.operationId = 'Things';
    expect(() => describeOperations(doc)).toThrow('name the method with x-client-method');
    get['x-client-method'] = 'things';
    expect(() => describeOperations(doc)).toThrow('x-client-method must be <resource>.<verb>');
  });

  it('takes a page index as the position, and refuses a paging role it does not know', () => {
    const doc = document(things);
    const get = /** @type {Record<string, any>} */ (doc.paths['/things/{group}']).get;
    get.parameters[1] = { ...get.parameters[1], 'x-paging': 'page', schema: { minimum: 1 } };
    const described = /** @type {Record<string, any>} */ (describeOperations(doc).listThings);
    const offset = described.parameters[2];
    expect(offset).toMatchObject({ paging: 'page', minimum: 1 });
    get.parameters[1]['x-paging'] = 'cursor';
    expect(() => describeOperations(doc)).toThrow('x-paging must be limit, offset, page');
  });

  it.each([
    [{ style: 'spaceDelimited' }, ' '],
    [{ style: 'form', explode: false }, ','],
    [{ style: 'pipeDelimited' }, '|'],
  ])('gives the separator a form field encoded as %j joins its values with', (encoding, sep) => {
    const doc = document(things);
    /** @type {Record<string, any>} */ (doc.paths)['/token'] = {
      post: {
        operationId: 'requestToken',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object' },
              encoding: { scope: encoding },
            },
          },
        },
        responses: { 200: { description: 'ok' } },
      },
    };
    expect(describeOperations(doc).requestToken?.body).toEqual({
      required: true,
      mediaType: 'application/x-www-form-urlencoded',
      type: 'object',
      separators: { scope: sep },
    });
  });

  it('finds the records in the one array property of an envelope, or the one x-records names', () => {
    const envelope = { type: 'object', properties: { items: things, total: { type: 'integer' } } };
    expect(describeOperations(document(envelope)).listThings?.response).toMatchObject({
      type: 'object',
      records: 'items',
    });
    const two = {
      type: 'object',
      'x-records': 'data',
      properties: { data: things, links: { type: 'array', items: { type: 'string' } } },
    };
    expect(describeOperations(document(two)).listThings?.response).toMatchObject({
      records: 'data',
    });
    const unnamed = { ...two, 'x-records': undefined };
    expect(() => describeOperations(document(unnamed))).toThrow(
      'GET /things/{group}: a paged answer must be an array or an object with one array property',
    );
  });
});

describe('the other runtime facts', () => {
  it('gives the oauth2 scopes, the defaults and enums of named schemas, and the tiers', () => {
    const doc = document(things);
    expect(oauth2Scopes(doc)).toEqual(['Api', 'Api.Things']);
    expect(describeSchemaValues(doc)).toEqual({
      Kind: { enum: ['a', 'b'] },
      Product: { default: 'P1' },
    });
    const source = renderOperations(doc);
    expect(source).toContain('export const listThings = {');
    expect(source).toContain('as const satisfies OperationDescription;');
    expect(source).toContain('export const rateLimitTiers = {\n  bronze: 1,\n} as const;');
    expect(source).toContain('export const oauth2Scopes = ["Api", "Api.Things"] as const;');
    expect(source).toContain('export const operations = { listThings } as const;');
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
