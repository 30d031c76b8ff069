import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { specDocuments } from '@partner-apis/sandbox/specs';
import { describeSpec, type SpecModel } from '@partner-apis/spec-model';
import type { SpecName } from './types.js';

type Json = Record<string, unknown>;

/** The bundled OpenAPI document of each spec that has operations. */
export type SpecDocuments = Readonly<
  Record<Exclude<SpecName, 'common'>, Readonly<Record<string, unknown>>>
>;

/** The documents of the specs this package was built from: the sandbox's, bundled once. */
export const DOCUMENTS: SpecDocuments = specDocuments;

const models = new WeakMap<object, SpecModel>();

/**
 * The operation model of a document (read once per document): the reading of the specs the
 * clients and the sandbox share.
 *
 * @example
 * modelOf(DOCUMENTS.exposure).operations[0]?.paging?.position; // { name: 'offset', unit: 'offset', base: 0 }
 */
export function modelOf(document: Readonly<Record<string, unknown>>): SpecModel {
  let model = models.get(document);
  if (model === undefined) {
    model = describeSpec(document);
    models.set(document, model);
  }
  return model;
}

/**
 * The headers a client of the spec sets itself (`x-tracing`), by role, as the model reads them.
 *
 * @example
 * tracingHeadersOf(DOCUMENTS.liability); // { requestId: 'X-Z-Request-Id', conversationId: … }
 */
export function tracingHeadersOf(document: Readonly<Record<string, unknown>>): {
  requestId?: string;
  conversationId?: string;
} {
  const parameters = modelOf(document).operations.flatMap((operation) => operation.parameters);
  return {
    requestId: parameters.find((p) => p.role === 'request-id')?.name,
    conversationId: parameters.find((p) => p.role === 'conversation-id')?.name,
  };
}

/**
 * Escapes one token of a JSON Pointer (RFC 6901).
 *
 * @example
 * escapeToken('application/json'); // 'application~1json'
 */
export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The JSON Pointer of a path of tokens.
 *
 * @example
 * pointer('paths', '/quotes/{quoteId}', 'get'); // '/paths/~1quotes~1{quoteId}/get'
 */
export function pointer(...tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value at a local `$ref` (`#/…`) of `document`, following further refs.
 *
 * @example
 * resolve(document, { $ref: '#/components/schemas/Location' }); // the Location schema
 */
export function resolve(document: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 16 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const tokens = current.$ref.replace(/^#\//, '').split('/');
    let target: unknown = document;
    for (const token of tokens) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isRecord(target) ? target[key] : undefined;
    }
    current = target;
  }
  return current;
}

/**
 * The object at `tokens` of `document`, refs resolved on the way; `{}` when there is none.
 *
 * @example
 * at(document, 'paths', '/quotes', 'get', 'responses', '2XX'); // the response, its $ref followed
 */
export function at(document: Json, ...tokens: readonly string[]): Json {
  let current: unknown = document;
  for (const token of tokens) {
    current = resolve(document, isRecord(current) ? current[token] : undefined);
  }
  return isRecord(current) ? current : {};
}

/**
 * The response of an operation that documents `status`: exact, then `4XX`, then `default`.
 *
 * @example
 * responseKey(operation, 404); // '404' if documented, else '4XX', else 'default'
 */
export function responseKey(operation: Json, status: number): string | undefined {
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${exact[0]}XX`;
  if (range in responses) return range;
  return 'default' in responses ? 'default' : undefined;
}

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;
let ajv: Ajv2020 | undefined;

/** The validator of every document, made on the first check rather than at import. */
function validatorOf(): Ajv2020 {
  if (ajv === undefined) {
    // `strict: false`: OpenAPI schemas carry keywords Ajv does not know (`x-…`, `example`).
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
  }
  return ajv;
}
const documentIds = new Map<Json, string>();
const compiled = new Map<string, ValidateFunction>();

/** Makes the document's local `$ref`s absolute, so a schema taken out of it still resolves. */
function anchorRefs(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((item) => anchorRefs(item, id));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#')
        ? `${id}${inner}`
        : anchorRefs(inner, id),
    ]),
  );
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${where} lacks ${String(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') {
    return `${where} has ${String(params.additionalProperty)}, which the schema does not allow`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

/**
 * Validates `value` against a schema of `document` (its local refs resolved there); the
 * problems in words, none when it is valid.
 *
 * @example
 * validate(DOCUMENTS.auth, { $ref: '#/components/schemas/TokenResponse' }, {}); // ['the body lacks access_token', …]
 */
export function validate(document: Json, schema: unknown, value: unknown): string[] {
  let id = documentIds.get(document);
  if (id === undefined) {
    id = `verify-spec-${documentIds.size + 1}`;
    validatorOf().addSchema({ $id: id, components: document.components ?? {} });
    documentIds.set(document, id);
  }
  const anchored = anchorRefs(isRecord(schema) ? schema : {}, id) as object;
  const key = JSON.stringify(anchored);
  let check = compiled.get(key);
  if (check === undefined) {
    check = validatorOf().compile(anchored);
    compiled.set(key, check);
  }
  if (check(value)) return [];
  const problems = (check.errors ?? []).filter((e) => e.keyword !== 'if').map(describe);
  return [...new Set(problems)];
}

/**
 * The schema of the `application/json` content of a response (or request body) object.
 *
 * @example
 * mediaSchema(document, operation.responses['200']); // { type: 'array', items: … }
 */
export function mediaSchema(document: Json, responseOrBody: unknown): unknown {
  const resolved = resolve(document, responseOrBody);
  const content = isRecord(resolved) && isRecord(resolved.content) ? resolved.content : {};
  const media = content['application/json'];
  return isRecord(media) ? media.schema : undefined;
}
