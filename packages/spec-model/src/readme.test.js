// @ts-check
// #region readme-example
import { expect, it } from 'vitest';
import { describeSpec, responseSchema } from '@partner-apis/spec-model';

// A document bundled into one JSON value (`redocly bundle`): every $ref points inside it.
const document = {
  openapi: '3.1.0',
  info: { title: 'Locations', version: '1.0.0' },
  security: [{ key: [] }],
  paths: {
    '/locations': {
      get: {
        operationId: 'listLocations',
        parameters: [
          { name: 'limit', in: 'query', 'x-paging': 'limit', schema: { default: 128 } },
          { name: 'offset', in: 'query', 'x-paging': 'offset', schema: { minimum: 0 } },
        ],
        responses: {
          200: {
            description: 'One page of locations.',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Location' } },
              },
            },
          },
          '4XX': {
            description: 'Refused.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'apiKey' } },
    schemas: { Location: { type: 'object', 'x-record-key': 'locationId' } },
  },
};

it('describes a paged read', () => {
  const [list] = describeSpec(document).operations;
  if (list === undefined) throw new Error('no operation');
  expect(list.clientMethod).toEqual({ resource: 'locations', verb: 'list' });
  expect(list.paging).toMatchObject({
    defaultPageSize: 128,
    records: null,
    recordKey: 'locationId',
  });
  expect(list.arguments).toEqual([{ in: 'params', required: false }]);
  expect(list.security.apiKeys).toEqual([{ scheme: 'key', in: 'query', name: 'apiKey' }]);
  expect(responseSchema(list, 404)).toEqual({ type: 'object' });
});
// #endregion readme-example

// The README shows the example above verbatim, so it cannot rot.
import { readFileSync } from 'node:fs';

it('is the example of the README', () => {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const example = /\/\/ #region readme-example\n([\s\S]*?)\/\/ #endregion/.exec(source)?.[1];
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(example).toBeDefined();
  expect(readme).toContain('```js\n' + example + '```');
});
