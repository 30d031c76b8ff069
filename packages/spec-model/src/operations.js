// @ts-check
/**
 * The operation model: what a bundled OpenAPI document says about each of its operations, read
 * once by one set of rules. Codegen writes the services' tables from it, the sandbox serves
 * from it; the rules a client and the sandbox must agree on (the default page size, the order
 * of a method's arguments, which reads can `sync`) live here and nowhere else.
 */
import { isObject, resolveRef } from './document.js';

/** @typedef {import('./document.js').OpenApiDocument} OpenApiDocument */
/** @typedef {'query' | 'header' | 'path' | 'cookie'} ParameterLocation */

/**
 * The schema keywords of a parameter a client checks before sending it, as the spec gives them.
 * @typedef {object} Constraints
 * @property {string} [type]
 * @property {string} [format]
 * @property {readonly unknown[]} [enum]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {number} [exclusiveMinimum]
 * @property {number} [exclusiveMaximum]
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {string} [pattern]
 * @property {unknown} [default]
 */

/**
 * One parameter of an operation.
 * @typedef {object} ParameterModel
 * @property {string} name
 * @property {ParameterLocation} in
 * @property {boolean} required a path parameter always is
 * @property {unknown} schema as the document gives it, its `$ref`s kept
 * @property {Constraints} constraints the keywords of `schema` (its own `$ref` followed)
 * @property {string} [description] trimmed
 * @property {'limit' | 'offset' | 'page'} [paging] `x-paging`: the page size, or the position
 *   as a record index or a page index
 * @property {'watermark'} [sync] `x-sync`: the filter that keeps the records changed since a date
 * @property {boolean} assumed `x-upstream-gap` on the parameter or its schema: the documents do
 *   not state it, so its constraints are an assumption
 */

/**
 * The request body of an operation, in the first media type its spec lists.
 * @typedef {object} BodyModel
 * @property {boolean} required
 * @property {string} mediaType
 * @property {'array' | 'object'} [type] the JSON kind of its schema, where the spec says
 * @property {Readonly<Record<string, string>>} [separators] form fields holding several values,
 *   and the separator their `encoding` joins them with (e.g. the scopes of a token request)
 * @property {unknown} schema as the document gives it
 */

/**
 * The success answer of an operation: its first 2xx response.
 * @typedef {object} SuccessModel
 * @property {number} status `2XX` answers 200
 * @property {'array' | 'object'} [type] the JSON kind of the body, where the spec says
 * @property {boolean} bodyOptional `x-optional-body`: a 2xx may come without a body
 * @property {unknown} schema the JSON body's schema as the document gives it; undefined without one
 * @property {readonly unknown[]} examples the response's own examples (`example`, `examples`), each a body
 */

/**
 * How a paged read pages, and where its answer holds the records.
 * @typedef {object} PagingModel
 * @property {string} limit the page size parameter (`x-paging: limit`)
 * @property {number} defaultPageSize the page size when a call gives none (`defaultPageSize`)
 * @property {{ name: string, unit: 'offset' | 'page', base: number }} position the position
 *   parameter: a record index (`offset`) or a page index (`page`), counted from `base` (its `minimum`)
 * @property {string | null} records `null` when the body is the array of records, else the
 *   envelope's array property (`x-records` names it when there are several)
 * @property {unknown} item the schema of one record as the document gives it
 * @property {boolean} itemIsObject every record is a JSON object
 * @property {readonly unknown[]} itemExamples the records of the answer's examples
 * @property {string} [recordKey] `x-record-key`: the field that identifies a record
 * @property {{ parameter: string, field?: string }} [watermark] the `x-sync: watermark` query
 *   parameter, and the record field it filters on (the one sharing its stem: `modifiedSince`
 *   → `modifiedDate`) where the schema or its examples show one
 * @property {boolean} syncable whether the read gets `sync()`: it has a watermark and a record key
 */

/**
 * An API key a security requirement sends (an `apiKey` scheme).
 * @typedef {object} ApiKeyModel
 * @property {string} scheme the name of the scheme under `components.securitySchemes`
 * @property {'header' | 'query' | 'cookie'} in
 * @property {string} name the header, query parameter or cookie the key goes in
 */

/**
 * What an operation's security requirements ask of a request.
 * @typedef {object} SecurityModel
 * @property {readonly ApiKeyModel[]} apiKeys
 * @property {readonly string[]} oauth2Scopes the scopes of its OAuth 2.0 requirements
 */

/**
 * `x-mcp` of an operation: `{ name }` renames its MCP tool, `{ hidden: true }` leaves it out.
 * @param {unknown} value
 * @param {string} where
 * @returns {{ mcp?: { name?: string, hidden?: boolean } }}
 */
function mcpOf(value, where) {
  if (value === undefined) return {};
  const valid =
    isObject(value) &&
    (value.name === undefined ||
      (typeof value.name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.name))) &&
    (value.hidden === undefined || typeof value.hidden === 'boolean');
  if (!valid) {
    throw new Error(
      `${where}: x-mcp must be { name?: a tool name of 1–64 letters, digits, _ or -, hidden?: boolean }`,
    );
  }
  return {
    mcp: {
      name: /** @type {string | undefined} */ (value.name),
      hidden: /** @type {boolean | undefined} */ (value.hidden),
    },
  };
}

/**
 * One argument of an operation's method, in the order callers give them.
 * @typedef {{ in: 'path', name: string } | { in: 'body' | 'query', required: boolean }} ArgumentModel
 */

/**
 * One operation of a spec.
 * @typedef {object} OperationModel
 * @property {string} operationId
 * @property {{ resource: string, verb: string } | undefined} clientMethod the client member it is
 *   called through (`<resource>.<verb>()`): `x-client-method`, else from an operationId of the
 *   form `<verb><Resource>`; undefined when neither names one
 * @property {string} method upper case, e.g. `GET`
 * @property {string} path the path template, e.g. `/quotes/{quoteId}`
 * @property {string} [summary] trimmed
 * @property {string} [description] trimmed
 * @property {boolean} deprecated
 * @property {{ name?: string, hidden?: boolean }} [mcp] `x-mcp`: the name of its MCP tool, or that it
 *   has none
 * @property {readonly ParameterModel[]} parameters the path item's, then the operation's own
 *   (which replace a path item's of the same name and place)
 * @property {readonly ArgumentModel[]} arguments path parameters in path order, then the body,
 *   then the query object
 * @property {BodyModel} [body]
 * @property {SuccessModel} [success]
 * @property {ReadonlyMap<string, unknown>} responses by status key as the spec writes it, upper
 *   case (`200`, `4XX`, `DEFAULT`): the schema of the JSON body, undefined without one
 * @property {PagingModel} [paging] for a read with `x-paging` parameters
 * @property {SecurityModel} security
 */

/**
 * A whole spec: its operations and the facts it states once for all of them.
 * @typedef {object} SpecModel
 * @property {readonly OperationModel[]} operations in the order of the document's paths
 * @property {Readonly<Record<string, number>>} [rateLimitTiers] `info.x-rate-limit-tiers`: calls
 *   per second of each tier of a client application
 * @property {readonly string[]} oauth2Scopes the scopes the document's own security requires
 * @property {Readonly<Record<string, { default?: unknown, enum?: readonly unknown[] }>>} schemaValues
 *   the `default` and `enum` of every named schema that has one
 */

/** The methods of a path item, in the order OpenAPI lists them. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS = ['query', 'header', 'path', 'cookie'];
const PAGING_ROLES = ['limit', 'offset', 'page'];
/** The separator each OpenAPI encoding of an array form field joins its values with. */
const FORM_SEPARATORS = { spaceDelimited: ' ', pipeDelimited: '|', form: ',' };
/** @type {readonly (keyof Constraints)[]} */
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
/** The page size where the spec gives no `default`, if its `maximum` allows it. */
const FALLBACK_PAGE_SIZE = 100;

/**
 * The page size of a read when a call gives none: the `limit` parameter's `default`, else 100
 * or its `maximum` if that is lower. Clients send it; the sandbox answers with it.
 *
 * @example
 * defaultPageSize({ minimum: 1, maximum: 1024, default: 128 }); // 128
 * defaultPageSize({ maximum: 50 }); // 50
 * @param {Constraints} limit the constraints of the `x-paging: limit` parameter
 * @returns {number}
 */
export function defaultPageSize(limit) {
  if (typeof limit.default === 'number') return limit.default;
  return typeof limit.maximum === 'number'
    ? Math.min(limit.maximum, FALLBACK_PAGE_SIZE)
    : FALLBACK_PAGE_SIZE;
}

/**
 * @param {OpenApiDocument} document
 * @param {unknown} entry
 * @param {string} where for messages
 * @returns {ParameterModel}
 */
function describeParameter(document, entry, where) {
  const p = resolveRef(document, entry);
  const { name } = p;
  if (typeof name !== 'string') throw new Error(`${where}: a parameter has no name`);
  const location = /** @type {ParameterLocation} */ (p.in);
  if (!LOCATIONS.includes(location)) {
    throw new Error(`${where}: parameter ${name} must be in ${LOCATIONS.join(', ')}`);
  }
  const schema = resolveRef(document, p.schema);
  /** @type {Record<string, unknown>} */
  const constraints = {};
  for (const key of CONSTRAINTS) if (schema[key] !== undefined) constraints[key] = schema[key];
  /** @type {ParameterModel} */
  const described = {
    name,
    in: location,
    required: p.required === true || location === 'path',
    schema: p.schema ?? {},
    constraints,
    assumed: p['x-upstream-gap'] !== undefined || schema['x-upstream-gap'] !== undefined,
  };
  if (typeof p.description === 'string') described.description = p.description.trim();
  const paging = p['x-paging'];
  if (paging !== undefined) {
    if (!PAGING_ROLES.includes(String(paging)) || location !== 'query') {
      throw new Error(
        `${where}: parameter ${name}: x-paging must be ${PAGING_ROLES.join(', ')} on a query parameter (got ${String(paging)} in ${location})`,
      );
    }
    described.paging = /** @type {'limit' | 'offset' | 'page'} */ (paging);
  }
  const sync = p['x-sync'];
  if (sync !== undefined) {
    if (sync !== 'watermark' || location !== 'query') {
      throw new Error(
        `${where}: parameter ${name}: x-sync must be watermark on a query parameter (got ${String(sync)} in ${location})`,
      );
    }
    described.sync = sync;
  }
  return described;
}

/**
 * `array` or `object` when a schema (or every member of its `allOf`) says so.
 * @param {OpenApiDocument} document
 * @param {Record<string, unknown>} schema
 * @returns {'array' | 'object' | undefined}
 */
function schemaType(document, schema) {
  if (schema.type === 'array' || schema.type === 'object') return schema.type;
  if (!Array.isArray(schema.allOf)) return undefined;
  const types = new Set(
    schema.allOf.map((member) => schemaType(document, resolveRef(document, member))),
  );
  types.delete(undefined);
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * The JSON media of a `content` map: `application/json` or a `+json` type.
 * @param {OpenApiDocument} document
 * @param {unknown} content
 */
function jsonMedia(document, content) {
  const entries = Object.entries(isObject(content) ? content : {});
  const json = entries.find(([type]) => /^application\/([\w.-]+\+)?json\b/i.test(type));
  return json === undefined ? undefined : resolveRef(document, json[1]);
}

/**
 * @param {OpenApiDocument} document
 * @param {Record<string, unknown> | undefined} media
 */
function examplesOf(document, media) {
  /** @type {unknown[]} */
  const examples = [];
  if (media === undefined) return examples;
  if ('example' in media) examples.push(media.example);
  if (isObject(media.examples)) {
    for (const entry of Object.values(media.examples)) {
      const example = resolveRef(document, entry);
      if ('value' in example) examples.push(example.value);
    }
  }
  return examples;
}

/**
 * @param {OpenApiDocument} document
 * @param {Record<string, unknown>} responses
 * @returns {SuccessModel | undefined}
 */
function describeSuccess(document, responses) {
  // An exact status before a range.
  const key = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()[0];
  if (key === undefined) return undefined;
  const response = resolveRef(document, responses[key]);
  const media = jsonMedia(document, response.content);
  const schema = media?.schema;
  /** @type {SuccessModel} */
  const success = {
    status: /^\d+$/.test(key) ? Number(key) : 200,
    bodyOptional: response['x-optional-body'] === true,
    schema,
    examples: examplesOf(document, media),
  };
  const type =
    schema === undefined ? undefined : schemaType(document, resolveRef(document, schema));
  if (type !== undefined) success.type = type;
  return success;
}

/**
 * The field names a record has, in order: its schema's properties, then its examples' fields.
 * @param {Record<string, unknown>} item
 * @param {readonly unknown[]} examples
 */
function fieldsOf(item, examples) {
  const fields = new Set(isObject(item.properties) ? Object.keys(item.properties) : []);
  for (const example of examples)
    if (isObject(example)) for (const f of Object.keys(example)) fields.add(f);
  return [...fields];
}

/**
 * @param {OpenApiDocument} document
 * @param {readonly ParameterModel[]} parameters
 * @param {SuccessModel | undefined} success
 * @param {string} where for messages
 * @returns {PagingModel | undefined}
 */
function describePaging(document, parameters, success, where) {
  if (!parameters.some((p) => p.paging !== undefined)) return undefined;
  const limit = parameters.find((p) => p.paging === 'limit');
  const position = parameters.find((p) => p.paging === 'offset' || p.paging === 'page');
  if (limit === undefined || position === undefined) {
    throw new Error(
      `${where}: a paged read needs an x-paging: limit and an x-paging: offset or page parameter`,
    );
  }
  if (success?.schema === undefined) {
    throw new Error(`${where}: a paged read needs a JSON 2xx answer`);
  }
  const body = resolveRef(document, success.schema);
  const properties = isObject(body.properties) ? body.properties : {};
  /** @type {string | null | undefined} */
  let records = null;
  if (body.type !== 'array') {
    const arrays = Object.keys(properties).filter(
      (name) => resolveRef(document, properties[name]).type === 'array',
    );
    const named = body['x-records'];
    records = typeof named === 'string' ? named : arrays.length === 1 ? arrays[0] : undefined;
    if (records === undefined || !arrays.includes(records)) {
      throw new Error(
        `${where}: a paged answer must be an array or an object with one array property ` +
          `(name it with x-records when there are several; found ${arrays.join(', ') || 'none'})`,
      );
    }
  }
  const array = records === null ? body : resolveRef(document, properties[records]);
  const item = array.items ?? {};
  const itemSchema = resolveRef(document, item);
  const itemExamples = success.examples.flatMap((example) => {
    const found = records === null ? example : isObject(example) ? example[records] : undefined;
    return Array.isArray(found) ? found : [];
  });
  const base = position.constraints.minimum;
  /** @type {PagingModel} */
  const paging = {
    limit: limit.name,
    defaultPageSize: defaultPageSize(limit.constraints),
    position: {
      name: position.name,
      unit: position.paging === 'page' ? 'page' : 'offset',
      base: typeof base === 'number' ? base : 0,
    },
    records,
    item,
    itemIsObject: itemSchema.type === 'object',
    itemExamples,
    syncable: false,
  };
  if (typeof itemSchema['x-record-key'] === 'string') paging.recordKey = itemSchema['x-record-key'];
  const watermark = parameters.find((p) => p.sync === 'watermark');
  if (watermark !== undefined) {
    const own = Array.isArray(itemSchema.examples) ? itemSchema.examples : [];
    const stem = watermark.name.replace(/(Since|After|From)$/, '');
    const field = fieldsOf(itemSchema, [...own, ...itemExamples]).find(
      (f) => f !== watermark.name && f.startsWith(stem),
    );
    paging.watermark =
      field === undefined ? { parameter: watermark.name } : { parameter: watermark.name, field };
  }
  paging.syncable = paging.watermark !== undefined && paging.recordKey !== undefined;
  return paging;
}

/**
 * The request body, in the first media type the spec lists.
 * @param {OpenApiDocument} document
 * @param {unknown} requestBody
 * @param {string} where for messages
 * @returns {BodyModel | undefined}
 */
function describeBody(document, requestBody, where) {
  if (requestBody === undefined) return undefined;
  const body = resolveRef(document, requestBody);
  const [mediaType, entry] = Object.entries(isObject(body.content) ? body.content : {})[0] ?? [];
  if (mediaType === undefined) return undefined;
  const media = resolveRef(document, entry);
  /** @type {BodyModel} */
  const described = { required: body.required === true, mediaType, schema: media.schema ?? {} };
  const type = schemaType(document, resolveRef(document, media.schema));
  if (type !== undefined) described.type = type;
  /** @type {Record<string, string>} */
  const separators = {};
  for (const [field, encoding] of Object.entries(isObject(media.encoding) ? media.encoding : {})) {
    const e = resolveRef(document, encoding);
    const style = typeof e.style === 'string' ? e.style : 'form';
    // `form` joins with commas only when not exploded (RFC 6570's `{?list}`).
    if (style === 'form' && e.explode !== false) continue;
    const separator = FORM_SEPARATORS[/** @type {keyof typeof FORM_SEPARATORS} */ (style)];
    if (separator === undefined) {
      throw new Error(`${where}: encoding of ${field}: style ${style} is not an array style`);
    }
    separators[field] = separator;
  }
  if (Object.keys(separators).length > 0) described.separators = separators;
  return described;
}

/**
 * What a list of security requirements asks of a request: every API key and every OAuth 2.0
 * scope that any of them names.
 * @param {OpenApiDocument} document
 * @param {unknown} requirements
 * @returns {SecurityModel}
 */
function describeSecurity(document, requirements) {
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  /** @type {ApiKeyModel[]} */
  const apiKeys = [];
  /** @type {Set<string>} */
  const scopes = new Set();
  for (const requirement of Array.isArray(requirements) ? requirements : []) {
    if (!isObject(requirement)) continue;
    for (const [name, names] of Object.entries(requirement)) {
      const scheme = resolveRef(document, schemes[name]);
      if (scheme.type === 'oauth2' && Array.isArray(names)) {
        for (const scope of names) scopes.add(String(scope));
      }
      if (scheme.type !== 'apiKey' || apiKeys.some((k) => k.scheme === name)) continue;
      const place = /** @type {ApiKeyModel['in']} */ (scheme.in);
      if (!['header', 'query', 'cookie'].includes(place) || typeof scheme.name !== 'string') {
        throw new Error(
          `security scheme ${name}: an apiKey needs a name and in: header, query or cookie`,
        );
      }
      apiKeys.push({ scheme: name, in: place, name: scheme.name });
    }
  }
  return { apiKeys, oauth2Scopes: [...scopes] };
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
 * @param {Record<string, unknown>} operation
 * @param {string} operationId
 * @param {string} where for messages
 */
function clientMethodOf(operation, operationId, where) {
  const named = operation['x-client-method'];
  if (named !== undefined) {
    const match =
      typeof named === 'string' ? /^([a-z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)$/.exec(named) : null;
    if (match === null) {
      throw new Error(`${where}: x-client-method must be <resource>.<verb>, e.g. locations.list`);
    }
    return { resource: match[1] ?? '', verb: match[2] ?? '' };
  }
  const match = /^([a-z][a-z0-9]*)([A-Z][A-Za-z0-9]*)$/.exec(operationId);
  if (match === null) return undefined;
  const [, verb = '', name = ''] = match;
  return { resource: plural(name.charAt(0).toLowerCase() + name.slice(1)), verb };
}

/**
 * @param {string} path
 * @param {readonly ParameterModel[]} parameters
 * @param {BodyModel | undefined} body
 * @returns {ArgumentModel[]}
 */
function argumentsOf(path, parameters, body) {
  /** @type {ArgumentModel[]} */
  const args = parameters
    .filter((p) => p.in === 'path')
    .sort((a, b) => path.indexOf(`{${a.name}}`) - path.indexOf(`{${b.name}}`))
    .map((p) => ({ in: 'path', name: p.name }));
  if (body !== undefined) args.push({ in: 'body', required: body.required });
  const query = parameters.filter((p) => p.in === 'query');
  if (query.length > 0) args.push({ in: 'query', required: query.some((p) => p.required) });
  return args;
}

/**
 * @param {OpenApiDocument} document
 * @param {string} path
 * @param {string} method
 * @param {Record<string, unknown>} operation
 * @param {unknown} shared the path item's parameters
 * @returns {OperationModel}
 */
function describeOperation(document, path, method, operation, shared) {
  const where = `${method.toUpperCase()} ${path}`;
  const { operationId } = operation;
  if (typeof operationId !== 'string') throw new Error(`${where} has no operationId`);
  /** @param {unknown} list */
  const read = (list) =>
    (Array.isArray(list) ? list : []).map((entry) => describeParameter(document, entry, where));
  const own = read(operation.parameters);
  const parameters = [
    ...read(shared).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
    ...own,
  ];
  const responses = isObject(operation.responses) ? operation.responses : {};
  const success = describeSuccess(document, responses);
  const body = describeBody(document, operation.requestBody, where);
  const paging = describePaging(document, parameters, success, where);
  /** @type {OperationModel} */
  const described = {
    operationId,
    clientMethod: clientMethodOf(operation, operationId, where),
    method: method.toUpperCase(),
    path,
    deprecated: operation.deprecated === true,
    ...mcpOf(operation['x-mcp'], where),
    parameters,
    arguments: argumentsOf(path, parameters, body),
    responses: new Map(
      Object.entries(responses).map(([status, response]) => [
        status.toUpperCase(),
        jsonMedia(document, resolveRef(document, response).content)?.schema,
      ]),
    ),
    security: describeSecurity(document, operation.security ?? document.security),
  };
  if (typeof operation.summary === 'string') described.summary = operation.summary.trim();
  if (typeof operation.description === 'string') {
    described.description = operation.description.trim();
  }
  if (body !== undefined) described.body = body;
  if (success !== undefined) described.success = success;
  if (paging !== undefined) described.paging = paging;
  return described;
}

/**
 * Every operation of a bundled document, described by the one set of rules; a clear error
 * naming the operation for what the rules cannot read (a paged read without its records, an
 * unknown `x-paging` role, a malformed `x-client-method`, an operation without operationId).
 *
 * @example
 * const { operations } = describeSpec(openapiDocument);
 * operations.find((op) => op.operationId === 'listLocations')?.paging?.defaultPageSize; // 128
 * @param {OpenApiDocument} document
 * @returns {SpecModel}
 */
export function describeSpec(document) {
  /** @type {OperationModel[]} */
  const operations = [];
  for (const [path, entry] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    const item = resolveRef(document, entry);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      operations.push(describeOperation(document, path, method, operation, item.parameters));
    }
  }
  const info = isObject(document.info) ? document.info : {};
  const components = isObject(document.components) ? document.components : {};
  /** @type {Record<string, { default?: unknown, enum?: readonly unknown[] }>} */
  const schemaValues = {};
  for (const [name, schema] of Object.entries(
    isObject(components.schemas) ? components.schemas : {},
  )) {
    if (!isObject(schema)) continue;
    /** @type {{ default?: unknown, enum?: readonly unknown[] }} */
    const value = {};
    if (schema.default !== undefined) value.default = schema.default;
    if (Array.isArray(schema.enum)) value.enum = schema.enum;
    if (Object.keys(value).length > 0) schemaValues[name] = value;
  }
  /** @type {SpecModel} */
  const spec = {
    operations,
    oauth2Scopes: describeSecurity(document, document.security).oauth2Scopes,
    schemaValues,
  };
  const tiers = info['x-rate-limit-tiers'];
  if (isObject(tiers)) spec.rateLimitTiers = /** @type {Record<string, number>} */ (tiers);
  return spec;
}

/**
 * The schema of the documented answer for a status: the exact status first, then its class
 * (`4XX`), then `default`. `null` when the spec documents no such answer, `undefined` when it
 * documents one without a JSON body.
 *
 * @example
 * responseSchema(getQuote, 404); // the schema of `404`, else of `4XX`, else of `default`
 * @param {OperationModel} operation
 * @param {number} status
 * @returns {unknown}
 */
export function responseSchema(operation, status) {
  const exact = String(status);
  for (const key of [exact, `${exact[0]}XX`, 'DEFAULT']) {
    if (operation.responses.has(key)) return operation.responses.get(key);
  }
  return null;
}
