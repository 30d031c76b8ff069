// @ts-check
// House rules for every spec that `redocly lint` cannot express: which schema an error response
// really carries (following $refs across files), that every body has an example, and the
// upstream-gap conventions of the open record types.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const specsDir = join(repoRoot, 'specs');
const COMMON = join(specsDir, 'common/openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** @typedef {Record<string, any>} Node */
/** @typedef {{ file: string, node: any }} Located */

/**
 * Loads YAML documents once; `documents` can be seeded with in-memory fixtures.
 * @param {Map<string, Node>} [documents]
 */
function createLoader(documents = new Map()) {
  /** @param {string} file */
  const load = (file) => {
    let document = documents.get(file);
    if (!document) {
      document = /** @type {Node} */ (parseYaml(readFileSync(file, 'utf8')));
      documents.set(file, document);
    }
    return document;
  };

  /**
   * Follows a JSON Pointer (RFC 6901) inside a node.
   * @param {any} node
   * @param {string} pointer
   */
  const walk = (node, pointer) => {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
    return tokens
      .map((t) => decodeURIComponent(t).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((current, token) => (current == null ? undefined : current[token]), node);
  };

  /**
   * Follows `$ref` chains, across files, until a node that is not a reference.
   * @param {Located} located
   * @returns {Located}
   */
  const deref = ({ file, node }) => {
    for (let hops = 0; node && typeof node.$ref === 'string'; hops += 1) {
      if (hops > 20) throw new Error(`${file}: $ref chain too long at ${node.$ref}`);
      const [path = '', pointer = ''] = node.$ref.split('#');
      const target = path === '' ? file : resolve(dirname(file), path);
      node = walk(load(target), pointer);
      if (node === undefined) throw new Error(`${file}: unresolved $ref ${path}#${pointer}`);
      file = target;
    }
    return { file, node };
  };

  return { load, deref };
}

/**
 * Whether a schema is the common ErrorBody, or a local schema whose allOf includes it (a service
 * narrowing the code to its enum).
 * @param {ReturnType<typeof createLoader>} loader
 * @param {Located} schema
 * @returns {boolean}
 */
function isCommonErrorBody(loader, schema) {
  const ref = schema.node?.$ref;
  if (typeof ref === 'string') {
    const [path = '', pointer] = ref.split('#');
    const file = path === '' ? schema.file : resolve(dirname(schema.file), path);
    if (file === COMMON && pointer === '/components/schemas/ErrorBody') return true;
    return isCommonErrorBody(loader, loader.deref(schema));
  }
  const parts = schema.node?.allOf;
  return (
    Array.isArray(parts) &&
    parts.some((part) => isCommonErrorBody(loader, { ...schema, node: part }))
  );
}

/**
 * Every operation of a document with its method and path.
 * @param {Node} document
 */
function operationsOf(document) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method] })),
  );
}

/**
 * Problems of one spec against the house rules; an empty list when it follows them.
 * @param {string} file absolute path of the spec
 * @param {ReturnType<typeof createLoader>} loader
 * @param {{ errorBodyExceptions?: Record<string, string[]> }} [options] operationId → the
 *   schema names its error responses use instead of the common body
 */
function problemsOf(file, loader, { errorBodyExceptions = {} } = {}) {
  const document = loader.load(file);
  /** @type {string[]} */
  const problems = [];
  for (const { path, method, operation } of operationsOf(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const exception = errorBodyExceptions[operation.operationId];
    let commonErrorResponses = 0;
    for (const [status, raw] of Object.entries(operation.responses ?? {})) {
      const response = loader.deref({ file, node: raw });
      for (const [mediaType, media] of Object.entries(response.node.content ?? {})) {
        const hasExample =
          media.example !== undefined || (media.examples && Object.keys(media.examples).length > 0);
        if (!hasExample) problems.push(`${where} ${status} ${mediaType}: no example`);
        if (!/^[45]/.test(status)) continue;
        const schema = { file: response.file, node: media.schema };
        if (exception) {
          const name = String(schema.node?.$ref ?? '')
            .split('/')
            .pop();
          if (!exception.includes(String(name)))
            problems.push(`${where} ${status}: expected ${exception.join(' or ')}, found ${name}`);
        } else if (isCommonErrorBody(loader, schema)) {
          commonErrorResponses += 1;
        } else {
          problems.push(`${where} ${status}: error body is not the common ErrorBody`);
        }
      }
    }
    if (!exception && commonErrorResponses === 0)
      problems.push(`${where}: no 4XX/5XX response with the common ErrorBody`);
    const body = operation.requestBody && loader.deref({ file, node: operation.requestBody });
    for (const [mediaType, media] of Object.entries(body?.node.content ?? {})) {
      if (media.example === undefined && !media.examples)
        problems.push(`${where} request ${mediaType}: no example`);
    }
  }
  return problems;
}

const services = readdirSync(specsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'common')
  .map((entry) => entry.name)
  .sort();

describe('spec rules', () => {
  it('finds the five service specs', () => {
    expect(services).toEqual(['approvals', 'auth', 'exposure', 'liability', 'riskengineering']);
  });

  it.each(services)(
    '%s: every error response carries the common error body and every body has an example',
    (service) => {
      const file = join(specsDir, service, 'openapi.yaml');
      // The token endpoint answers with the RFC 6749 §5.2 body: the one documented exception.
      /** @type {Record<string, string[]>} */
      const errorBodyExceptions =
        service === 'auth' ? { requestToken: ['TokenErrorResponse', 'TokenServerError'] } : {};
      expect(problemsOf(file, createLoader(), { errorBodyExceptions })).toEqual([]);
    },
  );

  it.each(services)('%s: every operation has operationId, summary, tags and a 401', (service) => {
    const document = createLoader().load(join(specsDir, service, 'openapi.yaml'));
    for (const { operation } of operationsOf(document)) {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary).toBeTruthy();
      expect(operation.tags?.length).toBeGreaterThan(0);
      expect(Object.keys(operation.responses)).toContain('401');
    }
  });

  it.each(services)('%s: info.version follows the upstream version or says it is a gap', (s) => {
    const { info } = createLoader().load(join(specsDir, s, 'openapi.yaml'));
    const published = { liability: '1.0.0', approvals: '1.0.0' };
    const version = published[/** @type {keyof typeof published} */ (s)];
    if (version) expect(info.version).toBe(version);
    else {
      expect(info.version).toBe('0.1.0');
      expect(info['x-upstream-gap']).toMatch(/not shown/);
    }
  });

  it.each([
    ['exposure', 'Location'],
    ['riskengineering', 'Grading'],
    ['riskengineering', 'RiskLocation'],
  ])('%s: %s is an open record marked as an upstream gap', (service, name) => {
    const document = createLoader().load(join(specsDir, service, 'openapi.yaml'));
    const schema = document.components.schemas[name];
    expect(schema).toMatchObject({ type: 'object', additionalProperties: true });
    expect(schema['x-upstream-gap']).toMatch(/not shown/);
  });
});

describe('spec rule checker', () => {
  const file = join(specsDir, 'fixture/openapi.yaml');
  /** @param {Node} responses @param {Node} [schemas] */
  const fixture = (responses, schemas = {}) =>
    createLoader(
      new Map([
        [
          file,
          {
            paths: { '/things': { get: { operationId: 'listThings', responses } } },
            components: { schemas },
          },
        ],
      ]),
    );
  const commonBody = { $ref: '../common/openapi.yaml#/components/schemas/ErrorBody' };
  const json = (/** @type {Node} */ schema, example = true) => ({
    description: 'x',
    content: { 'application/json': { schema, ...(example ? { example: {} } : {}) } },
  });

  it('accepts the common body, directly or narrowed through allOf', () => {
    const loader = fixture(
      { 200: json({ type: 'object' }), 401: json({ $ref: '#/components/schemas/Narrow' }) },
      { Narrow: { allOf: [commonBody, { type: 'object' }] } },
    );
    expect(problemsOf(file, loader)).toEqual([]);
    expect(problemsOf(file, fixture({ 401: json(commonBody) }))).toEqual([]);
  });

  it('names an error response with another body, a missing example and a missing error', () => {
    const loader = fixture({
      200: json({ type: 'object' }, false),
      400: json({ type: 'object', properties: { error: { type: 'string' } } }),
    });
    expect(problemsOf(file, loader)).toEqual([
      'GET /things 200 application/json: no example',
      'GET /things 400: error body is not the common ErrorBody',
      'GET /things: no 4XX/5XX response with the common ErrorBody',
    ]);
  });

  it('reports a $ref that does not resolve', () => {
    const loader = fixture({ 401: { $ref: '#/components/responses/Missing' } });
    expect(() => problemsOf(file, loader)).toThrow(
      `${file}: unresolved $ref #/components/responses/Missing`,
    );
  });
});
