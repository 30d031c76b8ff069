// @ts-check
/**
 * The operation model: what a bundled OpenAPI document says about each of its operations, read
 * once by one set of rules. Codegen writes the services' tables from it, the sandbox serves
 * from it; the rules a client and the sandbox must agree on (the default page size, the order
 * of a method's arguments, which reads can `sync`) live here and nowhere else.
 */
import { isObject, resolveRef } from './document.js';
import { mcpOf, partNames, requestedMethod } from './names.js';

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
 * @property {'request-id' | 'conversation-id'} [role] `x-tracing`: a header the client sets
 *   itself, a fresh id per attempt or one id per conversation, so callers never pass it
 */

/**
 * How a body is written or read, by its media type: JSON, a URL-encoded form, multipart form
 * data, text, or bytes (any other type: `application/octet-stream`, `image/png`, …).
 * @typedef {'json' | 'form' | 'multipart' | 'text' | 'binary'} MediaKind
 */

/**
 * The request body of an operation, in the first media type its spec lists.
 * @typedef {object} BodyModel
 * @property {boolean} required
 * @property {string} mediaType
 * @property {MediaKind} kind
 * @property {'array' | 'object'} [type] the JSON kind of its schema, where the spec says
 * @property {readonly string[]} [files] form fields whose values are files (`format: binary`,
 *   or 3.1's `contentMediaType`), sent as parts with a file name
 * @property {Readonly<Record<string, string>>} [partTypes] the content type `encoding` gives
 *   a multipart field
 * @property {Readonly<Record<string, string>>} [separators] form fields holding several values,
 *   and the separator their `encoding` joins them with (e.g. the scopes of a token request)
 * @property {unknown} schema as the document gives it
 */

/**
 * The success answer of an operation: its first 2xx response.
 * @typedef {object} SuccessModel
 * @property {number} status `2XX` answers 200
 * @property {string} key the status as the spec writes it, e.g. `200` or `2XX`
 * @property {MediaKind | 'none'} kind how the body is read: JSON (the spec's JSON media type
 *   when it lists several), text, bytes, or no body at all
 * @property {string} [mediaType]
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
 * A security scheme of `components.securitySchemes`, as a client applies it.
 * @typedef {{ type: 'apiKey', in: 'header' | 'query' | 'cookie', name: string }
 *   | { type: 'http', scheme: 'basic' | 'bearer' }
 *   | { type: 'oauth2', tokenUrl?: string, scopes: readonly string[] }} SecuritySchemeModel
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
 * @property {readonly (readonly string[])[]} requirements the schemes of each requirement, any
 *   one of which will do (`[]` for none: the operation takes no credentials)
 * @property {readonly ApiKeyModel[]} apiKeys
 * @property {readonly string[]} oauth2Scopes the scopes of its OAuth 2.0 requirements
 */

/**
 * One argument of an operation's method, in the order callers give them: a path parameter, the
 * body, or the one object of its query, header and cookie parameters.
 * @typedef {{ in: 'path', name: string } | { in: 'body' | 'params', required: boolean }} ArgumentModel
 */

/**
 * One operation of a spec.
 * @typedef {object} OperationModel
 * @property {string} operationId
 * @property {{ resource: string, verb: string }} clientMethod the client member it is called
 *   through (`<resource>.<verb>()`): `x-client-method`, else from its operationId in any case
 *   style (or a bare verb and its tag), parted from others that ask for the same name
 * @property {string} method upper case, e.g. `GET`
 * @property {boolean} write whether it may change something on the server: any method but GET,
 *   HEAD, OPTIONS and TRACE (RFC 9110's safe methods)
 * @property {string} path the path template, e.g. `/quotes/{quoteId}`
 * @property {string} [summary] trimmed
 * @property {string} [description] trimmed
 * @property {boolean} deprecated
 * @property {{ name?: string, hidden?: boolean }} [mcp] `x-mcp`: the name of its MCP tool, or that it
 *   has none
 * @property {readonly ParameterModel[]} parameters the path item's, then the operation's own
 *   (which replace a path item's of the same name and place)
 * @property {readonly ArgumentModel[]} arguments path parameters in path order, then the body,
 *   then the object of the other parameters (those without a `role`)
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
 * @property {Readonly<Record<string, SecuritySchemeModel>>} securitySchemes every scheme the
 *   operations name
 * @property {Readonly<Record<string, { default?: unknown, enum?: readonly unknown[] }>>} schemaValues
 *   the `default` and `enum` of every named schema that has one
 */

/** The methods of a path item, in the order OpenAPI lists them. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS = ['query', 'header', 'path', 'cookie'];
const PAGING_ROLES = ['limit', 'offset', 'page'];
const TRACING_ROLES = ['request-id', 'conversation-id'];
/** RFC 9110's safe methods: every other method may change something on the server. */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS', 'TRACE'];
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
  const role = p['x-tracing'];
  if (role !== undefined) {
    if (!TRACING_ROLES.includes(String(role)) || location !== 'header') {
      throw new Error(
        `${where}: parameter ${name}: x-tracing must be ${TRACING_ROLES.join(' or ')} on a header (got ${String(role)} in ${location})`,
      );
    }
    described.role = /** @type {'request-id' | 'conversation-id'} */ (role);
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
 * How a media type is written or read.
 * @param {string} type
 * @returns {MediaKind}
 */
function mediaKind(type) {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (/^application\/([\w.-]+\+)?json$/.test(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  if (essence.startsWith('multipart/')) return 'multipart';
  return essence.startsWith('text/') ? 'text' : 'binary';
}

/**
 * The media of a `content` map a client reads or writes: its JSON entry when it has one, else
 * its first.
 * @param {OpenApiDocument} document
 * @param {unknown} content
 * @returns {{ type: string, kind: MediaKind, media: Record<string, unknown> } | undefined}
 */
function mediaOf(document, content) {
  const entries = Object.entries(isObject(content) ? content : {});
  const [type, media] = entries.find(([t]) => mediaKind(t) === 'json') ?? entries[0] ?? [];
  if (type === undefined) return undefined;
  return { type, kind: mediaKind(type), media: resolveRef(document, media) };
}

/**
 * The schema of the JSON media of a `content` map, if it has one.
 * @param {OpenApiDocument} document
 * @param {unknown} content
 */
function jsonSchemaOf(document, content) {
  const found = mediaOf(document, content);
  return found?.kind === 'json' ? found.media.schema : undefined;
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
  const found = mediaOf(document, response.content);
  const media = found?.kind === 'json' ? found.media : undefined;
  const schema = media?.schema;
  /** @type {SuccessModel} */
  const success = {
    status: /^\d+$/.test(key) ? Number(key) : 200,
    key,
    kind: found?.kind ?? 'none',
    bodyOptional: response['x-optional-body'] === true,
    schema,
    examples: examplesOf(document, media),
  };
  if (found !== undefined) success.mediaType = found.type;
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
 * Whether a schema holds a file: `format: binary`, or a `contentMediaType` of 3.1.
 * @param {OpenApiDocument} document
 * @param {unknown} node
 */
function isFile(document, node) {
  const schema = resolveRef(document, node);
  if (schema.type === 'array') return isFile(document, schema.items);
  return schema.format === 'binary' || typeof schema.contentMediaType === 'string';
}

/**
 * The properties of a form's schema whose values are files, and of the members of its `allOf`.
 * @param {OpenApiDocument} document
 * @param {Record<string, unknown>} schema
 * @returns {string[]}
 */
function fileFields(document, schema) {
  const own = Object.entries(isObject(schema.properties) ? schema.properties : {})
    .filter(([, property]) => isFile(document, property))
    .map(([name]) => name);
  const members = Array.isArray(schema.allOf) ? schema.allOf : [];
  return [...own, ...members.flatMap((m) => fileFields(document, resolveRef(document, m)))];
}

/**
 * The request body, in its JSON media type if it lists one, else the first.
 * @param {OpenApiDocument} document
 * @param {unknown} requestBody
 * @param {string} where for messages
 * @returns {BodyModel | undefined}
 */
function describeBody(document, requestBody, where) {
  if (requestBody === undefined) return undefined;
  const body = resolveRef(document, requestBody);
  const found = mediaOf(document, body.content);
  if (found === undefined) return undefined;
  const { media } = found;
  /** @type {BodyModel} */
  const described = {
    required: body.required === true,
    mediaType: found.type,
    kind: found.kind,
    schema: media.schema ?? {},
  };
  const schema = resolveRef(document, media.schema);
  const type = schemaType(document, schema);
  if (type !== undefined) described.type = type;
  if (found.kind === 'form' || found.kind === 'multipart') {
    const files = fileFields(document, schema);
    if (files.length > 0) described.files = files;
  }
  /** @type {Record<string, string>} */
  const partTypes = {};
  for (const [field, encoding] of Object.entries(isObject(media.encoding) ? media.encoding : {})) {
    const contentType = resolveRef(document, encoding).contentType;
    if (found.kind === 'multipart' && typeof contentType === 'string') {
      partTypes[field] = contentType;
    }
  }
  if (Object.keys(partTypes).length > 0) described.partTypes = partTypes;
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
 * A scheme of `components.securitySchemes` as a client applies it; a clear error for one it
 * cannot apply.
 * @param {OpenApiDocument} document
 * @param {string} name
 * @returns {SecuritySchemeModel}
 */
function describeScheme(document, name) {
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  if (schemes[name] === undefined) throw new Error(`security scheme ${name} is not defined`);
  const scheme = resolveRef(document, schemes[name]);
  if (scheme.type === 'apiKey') {
    const place = /** @type {ApiKeyModel['in']} */ (scheme.in);
    if (!['header', 'query', 'cookie'].includes(place) || typeof scheme.name !== 'string') {
      throw new Error(
        `security scheme ${name}: an apiKey needs a name and in: header, query or cookie`,
      );
    }
    return { type: 'apiKey', in: place, name: scheme.name };
  }
  const http = String(scheme.scheme).toLowerCase();
  if (scheme.type === 'http' && (http === 'basic' || http === 'bearer')) {
    return { type: 'http', scheme: http };
  }
  if (scheme.type === 'oauth2') {
    const flows = isObject(scheme.flows) ? scheme.flows : {};
    const flow = isObject(flows.clientCredentials) ? flows.clientCredentials : {};
    const scopes = Object.keys(isObject(flow.scopes) ? flow.scopes : {});
    return typeof flow.tokenUrl === 'string'
      ? { type: 'oauth2', tokenUrl: flow.tokenUrl, scopes }
      : { type: 'oauth2', scopes };
  }
  throw new Error(
    `security scheme ${name}: a client applies apiKey, http basic or bearer, and oauth2 client credentials (got ${String(scheme.type)}${scheme.type === 'http' ? ` ${http}` : ''})`,
  );
}

/**
 * What a list of security requirements asks of a request: the schemes of each, every API key
 * and every OAuth 2.0 scope that any of them names.
 * @param {OpenApiDocument} document
 * @param {unknown} requirements
 * @returns {SecurityModel}
 */
function describeSecurity(document, requirements) {
  /** @type {string[][]} */
  const names = [];
  /** @type {ApiKeyModel[]} */
  const apiKeys = [];
  /** @type {Set<string>} */
  const scopes = new Set();
  for (const requirement of Array.isArray(requirements) ? requirements : []) {
    if (!isObject(requirement)) continue;
    names.push(Object.keys(requirement));
    for (const [name, wanted] of Object.entries(requirement)) {
      const scheme = describeScheme(document, name);
      if (scheme.type === 'oauth2' && Array.isArray(wanted)) {
        for (const scope of wanted) scopes.add(String(scope));
      }
      if (scheme.type !== 'apiKey' || apiKeys.some((k) => k.scheme === name)) continue;
      apiKeys.push({ scheme: name, in: scheme.in, name: scheme.name });
    }
  }
  return { requirements: names, apiKeys, oauth2Scopes: [...scopes] };
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
  const params = parameters.filter((p) => p.in !== 'path' && p.role === undefined);
  if (params.length > 0) args.push({ in: 'params', required: params.some((p) => p.required) });
  return args;
}

/**
 * @param {OpenApiDocument} document
 * @param {string} path
 * @param {string} method
 * @param {Record<string, unknown>} operation
 * @param {unknown} shared the path item's parameters
 * @returns {Omit<OperationModel, 'clientMethod'> & { requested: import('./names.js').ClientMethod }}
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
  const upper = method.toUpperCase();
  /** @type {ReturnType<typeof describeOperation>} */
  const described = {
    operationId,
    requested: requestedMethod(operation, operationId, path, where),
    method: upper,
    write: !SAFE_METHODS.includes(upper),
    path,
    deprecated: operation.deprecated === true,
    ...mcpOf(operation['x-mcp'], where),
    parameters,
    arguments: argumentsOf(path, parameters, body),
    responses: new Map(
      Object.entries(responses).map(([status, response]) => [
        status.toUpperCase(),
        jsonSchemaOf(document, resolveRef(document, response).content),
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
  /** @type {ReturnType<typeof describeOperation>[]} */
  const described = [];
  for (const [path, entry] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    const item = resolveRef(document, entry);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      described.push(describeOperation(document, path, method, operation, item.parameters));
    }
  }
  const names = partNames(described.map((d) => ({ ...d, paged: d.paging !== undefined })));
  /** @type {OperationModel[]} */
  const operations = described.map(({ requested, ...operation }, i) => ({
    ...operation,
    clientMethod: names[i] ?? requested,
  }));
  /** @type {Record<string, SecuritySchemeModel>} */
  const securitySchemes = {};
  for (const operation of operations) {
    for (const name of operation.security.requirements.flat()) {
      securitySchemes[name] ??= describeScheme(document, name);
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
    securitySchemes,
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
