// @ts-check
import { describe, expect, it } from 'vitest';
import { componentsAsApi, hasOperations } from './component-library.js';

describe('hasOperations', () => {
  it('tells a service spec from a component library', () => {
    expect(hasOperations({ paths: { '/a': { get: {} } } })).toBe(true);
    expect(hasOperations({ webhooks: { done: { post: {} } } })).toBe(true);
    expect(hasOperations({ paths: { '/a': { parameters: [] } } })).toBe(false);
    expect(hasOperations({ paths: {} })).toBe(false);
    expect(hasOperations({})).toBe(false);
  });
});

describe('componentsAsApi', () => {
  it('uses each schema both ways, each parameter in a request, each response as one', () => {
    const library = {
      openapi: '3.1.0',
      paths: {},
      components: {
        schemas: { Body: { type: 'object' } },
        parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
        responses: { NotFound: { description: 'Not found.' } },
      },
    };
    const api = componentsAsApi(library);
    const body = { $ref: '#/components/schemas/Body' };
    expect(api.paths['/components/schemas/Body'].post).toEqual({
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: {
        200: { description: 'Body', content: { 'application/json': { schema: body } } },
      },
    });
    expect(api.paths['/components/parameters/Limit'].get.parameters).toEqual([
      { $ref: '#/components/parameters/Limit' },
    ]);
    expect(api.paths['/components/responses/NotFound'].get.responses).toEqual({
      default: { $ref: '#/components/responses/NotFound' },
    });
    expect(api.components).toBe(library.components);
    expect(library.paths).toEqual({});
  });
});
