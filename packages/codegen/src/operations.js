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
/**
 * What a paging parameter carries (`x-paging`): the page size, or the position as a record
 * index (`offset`) or a page index (`page`); the position's base is its schema's `minimum`.
 */
const PAGING_ROLES = ['limit', 'offset', 'page'];
/** The separator each OpenAPI encoding of an array form field joins its values with. */
const FORM_SEPARATORS = { spaceDelimited: ' ', pipeDelimited: '|', form: ',' };
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
  if (typeof p.description === 'string') described.description = p.description.trim();
  if (p['x-paging'] !== undefined) {
    if (!PAGING_ROLES.includes(String(p['x-paging']))) {
      throw new Error(
        `parameter ${String(p.name)}: x-paging must be ${PAGING_ROLES.join(', ')} (got ${String(p['x-paging'])})`,
      );
    }
    described.paging = p['x-paging'];
  }
  if (p['x-sync'] !== undefined) described.sync = p['x-sync'];
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
 * The first 2xx response, or undefined when there is none.
 * @param {JsonObject} document
 * @param {JsonObject} operation
 */
function successResponse(document, operation) {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const key = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/.test(status))
    .sort()[0];
  return key === undefined ? undefined : resolve(document, responses[key]);
}

/**
 * The JSON body schema of the first 2xx response, or undefined when there is none.
 * @param {JsonObject} document
 * @param {JsonObject} operation
 */
function successSchema(document, operation) {
  const response = successResponse(document, operation);
  if (response === undefined) return undefined;
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
  if (successResponse(document, operation)?.['x-optional-body'] === true) {
    response.bodyOptional = true;
  }
  const type = schemaType(document, schema);
  if (type !== undefined) response.type = type;
  if (paged) {
    if (schema === undefined) throw new Error(`${where}: a paged read needs a JSON 2xx answer`);
    const { records, items } = recordsLocation(document, schema, where);
    response.records = records;
    if (items.type === 'object') response.itemType = 'object';
    if (typeof items['x-record-key'] === 'string') response.recordKey = items['x-record-key'];
  }
  const { resource, verb } = clientMethod(operation, where);
  /** @type {JsonObject} */
  const described = {
    operationId: operation.operationId,
    resource,
    verb,
    method: method.toUpperCase(),
    path,
  };
  if (typeof operation.summary === 'string') described.summary = operation.summary.trim();
  if (typeof operation.description === 'string') {
    described.description = operation.description.trim();
  }
  described.parameters = parameters;
  const body = describeBody(document, operation);
  if (body !== undefined) described.body = body;
  described.response = response;
  const apiKeys = apiKeysOf(document, operation);
  if (apiKeys.length > 0) described.apiKeys = apiKeys;
  return described;
}

/**
 * The plural of a resource name, by the rules English names of collections follow.
 * @param {string} name
 */
function plural(name) {
  if (/s$/.test(name)) return name;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(x|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * The client method of an operation: `x-client-method` (`<resource>.<verb>`) where the spec
 * gives one, else from the operationId `<verb><Resource>` (`getQuote` → `quotes.get`).
 * @param {JsonObject} operation
 * @param {string} where
 */
function clientMethod(operation, where) {
  const named = operation['x-client-method'];
  if (named !== undefined) {
    const match =
      typeof named === 'string' ? /^([a-z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)$/.exec(named) : null;
    if (match === null) {
      throw new Error(`${where}: x-client-method must be <resource>.<verb>, e.g. locations.list`);
    }
    const [, resource = '', verb = ''] = match;
    return { resource, verb };
  }
  const id = String(operation.operationId);
  const match = /^([a-z][a-z0-9]*)([A-Z][A-Za-z0-9]*)$/.exec(id);
  if (match === null) {
    throw new Error(
      `${where}: operationId ${id} is not <verb><Resource>; name the method with x-client-method`,
    );
  }
  const [, verb = '', name = ''] = match;
  return { resource: plural(name.charAt(0).toLowerCase() + name.slice(1)), verb };
}

/**
 * The request body of an operation: whether it is required, its media type, the JSON kind of
 * its schema, and the encoding of form fields (how an array field is joined).
 * @param {JsonObject} document
 * @param {JsonObject} operation
 */
function describeBody(document, operation) {
  if (operation.requestBody === undefined) return undefined;
  const body = resolve(document, operation.requestBody);
  const content = isObject(body.content) ? body.content : {};
  const [mediaType, media] = Object.entries(content)[0] ?? [];
  if (mediaType === undefined) return undefined;
  const resolved = resolve(document, media);
  /** @type {JsonObject} */
  const described = { required: body.required === true, mediaType };
  const type = schemaType(document, resolve(document, resolved.schema));
  if (type !== undefined) described.type = type;
  if (isObject(resolved.encoding)) {
    /** @type {JsonObject} */
    const separators = {};
    for (const [field, encoding] of Object.entries(resolved.encoding)) {
      const e = resolve(document, encoding);
      const style = typeof e.style === 'string' ? e.style : 'form';
      // `form` joins with commas only when not exploded (RFC 6570's `{?list}`).
      if (style === 'form' && e.explode !== false) continue;
      const separator = FORM_SEPARATORS[/** @type {keyof typeof FORM_SEPARATORS} */ (style)];
      if (separator === undefined)
        throw new Error(`encoding of ${field}: style ${style} is not an array style`);
      separators[field] = separator;
    }
    if (Object.keys(separators).length > 0) described.separators = separators;
  }
  return described;
}

/**
 * The API keys an operation's security requirements send (`apiKey` schemes): where and under
 * which name, so that a client sends the key as the spec says.
 * @param {JsonObject} document
 * @param {JsonObject} operation
 */
function apiKeysOf(document, operation) {
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const requirements = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.security)
      ? document.security
      : [];
  /** @type {JsonObject[]} */
  const keys = [];
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    for (const name of Object.keys(requirement)) {
      const scheme = resolve(document, schemes[name]);
      if (scheme.type !== 'apiKey' || keys.some((k) => k.scheme === name)) continue;
      keys.push({ scheme: name, in: scheme.in, name: scheme.name });
    }
  }
  return keys;
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
 * The source of `src/generated/operations.ts`. A `standalone` file (for `auth`, which core
 * depends on) does not check its descriptions against core's `OperationDescription`.
 * @param {JsonObject} document
 * @param {{ standalone?: boolean }} [options]
 */
export function renderOperations(document, options = {}) {
  const operations = describeOperations(document);
  const ids = Object.keys(operations);
  const typed = ids.length > 0 && options.standalone !== true;
  // A spec without operations (the shared components, generated into core) imports nothing.
  const lines = typed
    ? ["import type { OperationDescription } from '@partner-apis/core';", '']
    : [];
  for (const [id, description] of Object.entries(operations)) {
    const title = typeof description.summary === 'string' ? description.summary : id;
    lines.push(
      `/** ${title}: \`${description.method} ${description.path}\`. */`,
      `export const ${id} = ${literal(description)} as const${typed ? ' satisfies OperationDescription' : ''};`,
      '',
    );
  }
  if (ids.length > 0) {
    lines.push(
      '/** Every operation of the spec by operationId: the table clients, sandbox and CLI share. */',
      `export const operations = { ${ids.join(', ')} } as const;`,
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
