// @ts-check
import { bundle, createConfig } from '@redocly/openapi-core';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Whether an OpenAPI document describes operations, or only components for other specs to
 * `$ref` (like `specs/common/`).
 *
 * @param {Record<string, any>} document
 * @returns {boolean}
 */
export function hasOperations(document) {
  const items = [...Object.values(document.paths ?? {}), ...Object.values(document.webhooks ?? {})];
  return items.some((item) =>
    METHODS.some((method) => item && typeof item === 'object' && method in item),
  );
}

/**
 * A component library as an API that uses every component: each schema as a request body and
 * as a response body, each parameter in a request, each response as a response. Diff rules
 * judge a change by the direction the data flows, and a component nothing uses has none; but
 * the types generated from a library are exported for users to read and to build, so every
 * schema counts in both directions.
 *
 * @param {Record<string, any>} document
 * @returns {Record<string, any>} a new document; the input is left alone
 */
export function componentsAsApi(document) {
  const components = document.components ?? {};
  /** @type {Record<string, unknown>} */
  const paths = {};
  for (const name of Object.keys(components.schemas ?? {})) {
    const schema = { $ref: `#/components/schemas/${name}` };
    const content = { 'application/json': { schema } };
    paths[`/components/schemas/${name}`] = {
      post: {
        requestBody: { required: true, content },
        responses: { 200: { description: name, content } },
      },
    };
  }
  for (const name of Object.keys(components.parameters ?? {})) {
    paths[`/components/parameters/${name}`] = {
      get: {
        parameters: [{ $ref: `#/components/parameters/${name}` }],
        responses: { 204: { description: name } },
      },
    };
  }
  for (const name of Object.keys(components.responses ?? {})) {
    paths[`/components/responses/${name}`] = {
      get: { responses: { default: { $ref: `#/components/responses/${name}` } } },
    };
  }
  return { ...document, paths };
}

/**
 * Reads a spec with every external `$ref` pulled in, so it can be written anywhere.
 *
 * @param {string} path
 * @returns {Promise<Record<string, any>>}
 */
export async function bundleSpec(path) {
  const config = await createConfig({});
  const { bundle: result, problems } = await bundle({ ref: path, config });
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new Error(`${path}: ${errors.map((p) => p.message).join('; ')}`);
  return /** @type {Record<string, any>} */ (result.parsed);
}
