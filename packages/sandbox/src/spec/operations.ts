/** An OpenAPI document as the codegen bundles it: one JSON value, external `$ref`s inlined. */
export type OpenApiDocument = Readonly<Record<string, unknown>>;

/** A parameter of an operation, with its `$ref` resolved. */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path' | 'cookie';
  readonly required: boolean;
  readonly schema: unknown;
  readonly description: string;
  /** `x-paging`: `limit` (the page size), `offset` (a record index) or `page` (a page index). */
  readonly paging: string | undefined;
  /** `x-sync`: `watermark` marks a filter that keeps the records modified since a date. */
  readonly sync: string | undefined;
}

/** The success response of an operation, as the sandbox builds its answers from it. */
export interface OperationSuccess {
  readonly status: number;
  /** The JSON schema of the body with every `$ref` inlined; `undefined` without a JSON body. */
  readonly schema: unknown;
  /** The response's own examples (`examples`, `example`), each a body. */
  readonly examples: readonly unknown[];
}

/** The request body an operation accepts, in the one media type the sandbox reads. */
export interface OperationRequestBody {
  readonly mediaType: 'application/json' | 'application/x-www-form-urlencoded';
  readonly required: boolean;
  readonly schema: unknown;
  /** Form fields whose `encoding` is `spaceDelimited`: sent as one value, validated as a list. */
  readonly spaceDelimited: readonly string[];
}

/** One operation of a spec: what the router matches and what the validators check. */
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The spec's path template, e.g. `/quotes/{quoteId}`. */
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  readonly requestBody: OperationRequestBody | undefined;
  /** Response status keys of the spec (`200`, `4XX`, `default`) → the JSON schema of the body. */
  readonly responses: ReadonlyMap<string, unknown>;
  /** Scopes the operation's OAuth 2.0 security requirement names (empty without one). */
  readonly oauthScopes: readonly string[];
  /** The first 2xx response the spec documents, if any. */
  readonly success: OperationSuccess | undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Whether a JSON value is an object (not an array or null).
 *
 * @example
 * isRecord({ type: 'object' }); // true
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/...`) until a value that is not a reference. */
function resolve(document: OpenApiDocument, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 32 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Unsupported $ref ${ref}: the spec must be bundled`);
    let target: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isRecord(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new Error(`Unresolved $ref ${ref}`);
    current = target;
  }
  return current;
}

function readParameters(document: OpenApiDocument, list: unknown): OperationParameter[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry) => {
    const parameter = resolve(document, entry);
    if (!isRecord(parameter) || typeof parameter.name !== 'string') {
      throw new Error('A parameter without a name');
    }
    const location = parameter.in;
    if (
      location !== 'query' &&
      location !== 'header' &&
      location !== 'path' &&
      location !== 'cookie'
    ) {
      throw new Error(`Parameter ${parameter.name} has no valid "in"`);
    }
    return {
      name: parameter.name,
      in: location,
      required: parameter.required === true || location === 'path',
      schema: parameter.schema ?? {},
      description: typeof parameter.description === 'string' ? parameter.description : '',
      paging: typeof parameter['x-paging'] === 'string' ? parameter['x-paging'] : undefined,
      sync: typeof parameter['x-sync'] === 'string' ? parameter['x-sync'] : undefined,
    };
  });
}

function readRequestBody(
  document: OpenApiDocument,
  value: unknown,
): OperationRequestBody | undefined {
  const body = resolve(document, value);
  if (!isRecord(body) || !isRecord(body.content)) return undefined;
  for (const mediaType of ['application/json', 'application/x-www-form-urlencoded'] as const) {
    const media = body.content[mediaType];
    if (!isRecord(media)) continue;
    const encoding = isRecord(media.encoding) ? media.encoding : {};
    const spaceDelimited = Object.entries(encoding)
      .filter(([, e]) => isRecord(e) && e.style === 'spaceDelimited')
      .map(([field]) => field);
    return {
      mediaType,
      required: body.required === true,
      schema: media.schema ?? {},
      spaceDelimited,
    };
  }
  return undefined;
}

function readResponses(document: OpenApiDocument, value: unknown): Map<string, unknown> {
  const responses = new Map<string, unknown>();
  if (!isRecord(value)) return responses;
  for (const [status, entry] of Object.entries(value)) {
    const response = resolve(document, entry);
    const content = isRecord(response) && isRecord(response.content) ? response.content : {};
    const json = content['application/json'];
    responses.set(status.toUpperCase(), isRecord(json) ? json.schema : undefined);
  }
  return responses;
}

/**
 * A copy of a schema with every local `$ref` inlined, so a generator needs no document. A
 * reference back into itself (a recursive schema) becomes `{}`, which any value satisfies.
 *
 * @example
 * inlineRefs(document, { $ref: '#/components/schemas/Grading' }); // { type: 'object', … }
 */
export function inlineRefs(
  document: OpenApiDocument,
  value: unknown,
  visiting: ReadonlySet<string> = new Set(),
): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(document, item, visiting));
  if (!isRecord(value)) return value;
  if (typeof value.$ref === 'string') {
    if (visiting.has(value.$ref)) return {};
    return inlineRefs(document, resolve(document, value), new Set([...visiting, value.$ref]));
  }
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    copy[key] = inlineRefs(document, inner, visiting);
  return copy;
}

function readSuccess(document: OpenApiDocument, value: unknown): OperationSuccess | undefined {
  if (!isRecord(value)) return undefined;
  // An exact status before a range; `2XX` answers 200.
  const key = Object.keys(value)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()[0];
  if (key === undefined) return undefined;
  const response = resolve(document, value[key]);
  const content = isRecord(response) && isRecord(response.content) ? response.content : {};
  const media = content['application/json'];
  const examples: unknown[] = [];
  if (isRecord(media)) {
    if ('example' in media) examples.push(media.example);
    if (isRecord(media.examples)) {
      for (const entry of Object.values(media.examples)) {
        const example = resolve(document, entry);
        if (isRecord(example) && 'value' in example) examples.push(example.value);
      }
    }
  }
  return {
    status: /^\d+$/.test(key) ? Number(key) : 200,
    schema: isRecord(media) ? inlineRefs(document, media.schema) : undefined,
    examples,
  };
}

function readOauthScopes(document: OpenApiDocument, security: unknown): string[] {
  const schemes = isRecord(document.components) ? document.components.securitySchemes : undefined;
  if (!Array.isArray(security) || !isRecord(schemes)) return [];
  for (const requirement of security) {
    if (!isRecord(requirement)) continue;
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = resolve(document, schemes[name]);
      if (isRecord(scheme) && scheme.type === 'oauth2' && Array.isArray(scopes)) {
        return scopes.filter((s): s is string => typeof s === 'string');
      }
    }
  }
  return [];
}

/**
 * Reads every operation of a bundled spec.
 *
 * @example
 * const operations = readOperations(openapiDocument);
 * operations.find((op) => op.operationId === 'getApprovals')?.path; // '/approvals'
 */
export function readOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolve(document, rawItem);
    if (!isRecord(item)) continue;
    const shared = readParameters(document, item.parameters);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const own = readParameters(document, operation.parameters);
      // An operation's own parameter overrides a path-level one of the same name and location.
      const parameters = [
        ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
        ...own,
      ];
      operations.push({
        operationId:
          typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        requestBody: readRequestBody(document, operation.requestBody),
        responses: readResponses(document, operation.responses),
        oauthScopes: readOauthScopes(document, operation.security ?? document.security),
        success: readSuccess(document, operation.responses),
      });
    }
  }
  return operations;
}

/**
 * The schema of the documented response for a status: the exact status first, then its class
 * (`4XX`), then `default`. `null` when the spec documents no such response.
 */
export function responseSchemaFor(operation: Operation, status: number): unknown {
  const exact = String(status);
  if (operation.responses.has(exact)) return operation.responses.get(exact);
  const range = `${exact[0]}XX`;
  if (operation.responses.has(range)) return operation.responses.get(range);
  if (operation.responses.has('DEFAULT')) return operation.responses.get('DEFAULT');
  return null;
}
