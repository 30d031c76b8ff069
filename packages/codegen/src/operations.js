// @ts-check
/**
 * Renders the runtime description of a spec: per operation, what a client needs at run time and
 * the types cannot carry (method, path, parameters with the constraints worth checking before a
 * request, which parameters page, where an answer's records are), and the defaults and enums of
 * the named schemas. Service packages build their resources from it, so a spec edit reaches
 * their behaviour without hand-written changes.
 */

/** @typedef {Record<string, unknown>} JsonObject */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** Schema keywords a client checks before sending a parameter. */
const CONSTRAINTS = [
  'type',
  'format',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
];

/**
 * @param {unknown} value
 * @returns {value is JsonObject}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Follows local `$ref`s (`#/components/…`) of the bundled document.
 * @param {JsonObject} document
 * @param {unknown} node
 * @returns {JsonObject}
 */
function resolve(document, node) {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 32) throw new Error(`$ref cycle at ${current.$ref}`);
    /** @type {unknown} */
    let target = document;
    for (const key of current.$ref.replace(/^#\//, '').split('/')) {
      const token = key.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[token] : undefined;
    }
    if (target === undefined) throw new Error(`unresolved $ref ${current.$ref}`);
    current = target;
  }
  return isObject(current) ? current : {};
}

/**
 * @param {JsonObject} document
 * @param {unknown} parameter
 */
function describeParameter(document, parameter) {
  const p = resolve(document, parameter);
  const schema = resolve(document, p.schema);
  /** @type {JsonObject} */
  const described = { name: p.name, in: p.in, required: p.required === true };
  for (const key of CONSTRAINTS) if (schema[key] !== undefined) described[key] = schema[key];
  if (p['x-paging'] !== undefined) described.paging = p['x-paging'];
  // What the documents leave unknown is checked, but never refused unless the caller asks.
  if (p['x-upstream-gap'] !== undefined || schema['x-upstream-gap'] !== undefined) {
    described.assumed = true;
  }
  return described;
}

/**
 * `array` or `object` when a schema (or every member of its `allOf`) says so.
 * @param {JsonObject} document
 * @param {JsonObject | undefined} schema
 * @returns {string | undefined}
 */
function schemaType(document, schema) {
  if (schema === undefined) return undefined;
  if (schema.type === 'array' || schema.type === 'object') return schema.type;
  if (!Array.isArray(schema.allOf)) return undefined;
  const types = new Set(
    schema.allOf.map((member) => schemaType(document, resolve(document, member))),
  );
  types.delete(undefined);
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * The JSON body schema of the first 2xx response, or undefined when there is none.
 * @param {JsonObject} document
 * @param {JsonObject} operation
 */
function successSchema(document, operation) {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const key = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/.test(status))
    .sort()[0];
  if (key === undefined) return undefined;
  const response = resolve(document, responses[key]);
  const content = isObject(response.content) ? response.content : {};
  const json = Object.entries(content).find(([type]) => type.includes('json'));
  return json === undefined ? undefined : resolve(document, resolve(document, json[1]).schema);
}

/**
 * Where the records of a paged answer are: the body itself (an array), or the one array property
 * of an envelope object (`x-records` names it when there are several).
 * @param {JsonObject} document
 * @param {JsonObject} schema
 * @param {string} where for messages
 */
function recordsLocation(document, schema, where) {
  if (schema.type === 'array') return { records: null, items: resolve(document, schema.items) };
  const properties = isObject(schema.properties) ? schema.properties : {};
  const named = schema['x-records'];
  const arrays = Object.keys(properties).filter(
    (name) => resolve(document, properties[name]).type === 'array',
  );
  const records = typeof named === 'string' ? named : arrays.length === 1 ? arrays[0] : undefined;
  if (records === undefined || !arrays.includes(records)) {
    throw new Error(
      `${where}: a paged answer must be an array or an object with one array property ` +
        `(name it with x-records when there are several; found ${arrays.join(', ') || 'none'})`,
    );
  }
  return { records, items: resolve(document, resolve(document, properties[records]).items) };
}

/**
 * @param {JsonObject} document
 * @param {string} path
 * @param {string} method
 * @param {JsonObject} operation
 * @param {unknown[]} pathParameters
 */
function describeOperation(document, path, method, operation, pathParameters) {
  const where = `${method.toUpperCase()} ${path}`;
  const parameters = [
    ...pathParameters,
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ].map((parameter) => describeParameter(document, parameter));
  const paged = parameters.some((p) => p.paging !== undefined);
  const schema = successSchema(document, operation);
  /** @type {JsonObject} */
  const response = {};
  const type = schemaType(document, schema);
  if (type !== undefined) response.type = type;
  if (paged) {
    if (schema === undefined) throw new Error(`${where}: a paged read needs a JSON 2xx answer`);
    const { records, items } = recordsLocation(document, schema, where);
    response.records = records;
    if (items.type === 'object') response.itemType = 'object';
    if (typeof items['x-record-key'] === 'string') response.recordKey = items['x-record-key'];
  }
  return {
    operationId: operation.operationId,
    method: method.toUpperCase(),
    path,
    parameters,
    response,
  };
}

/**
 * The runtime descriptions of every operation of a bundled document, keyed by operationId.
 * @param {JsonObject} document
 * @returns {Record<string, JsonObject>}
 */
export function describeOperations(document) {
  /** @type {Record<string, JsonObject>} */
  const described = {};
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      if (typeof operation.operationId !== 'string') {
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      }
      described[operation.operationId] = describeOperation(
        document,
        path,
        method,
        operation,
        shared,
      );
    }
  }
  return described;
}

/**
 * The `default` and `enum` of every named schema that has one.
 * @param {JsonObject} document
 * @returns {Record<string, JsonObject>}
 */
export function describeSchemaValues(document) {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  /** @type {Record<string, JsonObject>} */
  const values = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema)) continue;
    /** @type {JsonObject} */
    const value = {};
    if (schema.default !== undefined) value.default = schema.default;
    if (Array.isArray(schema.enum)) value.enum = schema.enum;
    if (Object.keys(value).length > 0) values[name] = value;
  }
  return values;
}

/**
 * The scopes of the document's security requirements that name an OAuth 2.0 scheme.
 * @param {JsonObject} document
 * @returns {string[]}
 */
export function oauth2Scopes(document) {
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const requirements = Array.isArray(document.security) ? document.security : [];
  /** @type {Set<string>} */
  const scopes = new Set();
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    for (const [scheme, names] of Object.entries(requirement)) {
      if (resolve(document, schemes[scheme]).type !== 'oauth2' || !Array.isArray(names)) continue;
      for (const name of names) scopes.add(String(name));
    }
  }
  return [...scopes];
}

/**
 * @param {string} key
 */
function propertyName(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * @param {unknown} value
 * @param {string} indent
 * @returns {string}
 */
function literal(value, indent = '') {
  if (Array.isArray(value)) {
    if (value.every((item) => !isObject(item) && !Array.isArray(item))) {
      return `[${value.map((item) => literal(item)).join(', ')}]`;
    }
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},\n`).join('')}${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([k, v]) => `${inner}${propertyName(k)}: ${literal(v, inner)},\n`);
    return `{\n${lines.join('')}${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * The source of `src/generated/operations.ts`.
 * @param {JsonObject} document
 */
export function renderOperations(document) {
  const operations = describeOperations(document);
  // A spec without operations (the shared components, generated into core) imports nothing.
  const lines =
    Object.keys(operations).length === 0
      ? []
      : ["import type { OperationDescription } from '@partner-apis/core';", ''];
  for (const [id, description] of Object.entries(operations)) {
    const summary = resolve(document, resolve(document, document.paths)[String(description.path)]);
    const operation = resolve(document, summary[String(description.method).toLowerCase()]);
    const title = typeof operation.summary === 'string' ? operation.summary : id;
    lines.push(
      `/** ${title}: \`${description.method} ${description.path}\`. */`,
      `export const ${id} = ${literal(description)} as const satisfies OperationDescription;`,
      '',
    );
  }
  const info = isObject(document.info) ? document.info : {};
  if (isObject(info['x-rate-limit-tiers'])) {
    lines.push(
      '/** Calls per second of each tier of the client application (`x-rate-limit-tiers`). */',
      `export const rateLimitTiers = ${literal(info['x-rate-limit-tiers'])} as const;`,
      '',
    );
  }
  const scopes = oauth2Scopes(document);
  if (scopes.length > 0) {
    lines.push(
      '/** The OAuth 2.0 scopes the spec requires of every request. */',
      `export const oauth2Scopes = ${literal(scopes)} as const;`,
      '',
    );
  }
  lines.push(
    '/** The `default` and `enum` of the named schemas that have one. */',
    `export const schemaValues = ${literal(describeSchemaValues(document))} as const;`,
    '',
  );
  return lines.join('\n');
}
