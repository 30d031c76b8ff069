// @ts-check
/**
 * Renders the runtime description of a spec (`src/generated/operations.ts`): per operation, what
 * a client needs at run time and the types cannot carry, as the operation model reads it from
 * the spec. Service packages build their resources from it, so a spec edit reaches their
 * behaviour without hand-written changes.
 */
import { describeSpec, isObject } from '@partner-apis/spec-model';

/** @typedef {Record<string, unknown>} JsonObject */
/** @typedef {import('@partner-apis/spec-model').OperationModel} OperationModel */

/**
 * The table entry of an operation, in the shape of core's `OperationDescription`: what a
 * client, the sandbox, verify, the command line and the MCP server read of it, none of which
 * derives any of it again.
 * @param {OperationModel} operation
 * @returns {JsonObject}
 */
export function tableEntry(operation) {
  const { paging, success, body } = operation;
  return {
    operationId: operation.operationId,
    resource: operation.clientMethod.resource,
    verb: operation.clientMethod.verb,
    method: operation.method,
    path: operation.path,
    summary: operation.summary,
    description: operation.description,
    deprecated: operation.deprecated || undefined,
    mcp: operation.mcp,
    write: operation.write || undefined,
    arguments: operation.arguments,
    parameters: operation.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      ...p.constraints,
      description: p.description,
      paging: p.paging,
      sync: p.sync,
      role: p.role,
      assumed: p.assumed || undefined,
    })),
    body: body && {
      required: body.required,
      mediaType: body.mediaType,
      kind: body.kind,
      type: body.type,
      files: body.files,
      partTypes: body.partTypes,
      separators: body.separators,
    },
    response: {
      kind: success?.kind ?? 'none',
      mediaType: success?.mediaType,
      type: success?.type,
      bodyOptional: success?.bodyOptional || undefined,
    },
    paging: paging && {
      pageSize: paging.defaultPageSize,
      records: paging.records,
      itemType: paging.itemIsObject ? 'object' : undefined,
      recordKey: paging.recordKey,
      syncable: paging.syncable || undefined,
    },
    security: operation.security.requirements,
  };
}

/** Words a JavaScript binding cannot be named. */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval'.split(
    ' ',
  ),
);

/**
 * The name of each operation's constant in `operations.ts`: its operationId where that is an
 * identifier, else the operationId in camelCase (`get-stations` → `getStations`), numbered
 * where two meet.
 * @param {readonly OperationModel[]} operations
 * @returns {Map<string, string>} operationId → constant
 */
export function constantNames(operations) {
  /** @type {Map<string, string>} */
  const names = new Map();
  const taken = new Set();
  for (const { operationId } of operations) {
    let base = operationId;
    if (!/^[A-Za-z_$][\w$]*$/.test(base) || RESERVED.has(base)) {
      const camel = operationId.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ''));
      base = /^[A-Za-z_$]/.test(camel) && !RESERVED.has(camel) ? camel : `operation${camel}`;
    }
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}${n}`;
    taken.add(name);
    names.set(operationId, name);
  }
  return names;
}

/**
 * The headers the client sets itself (`x-tracing`), by role, as the spec names them.
 * @param {readonly OperationModel[]} operations
 */
function tracingHeaders(operations) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const parameter of operations.flatMap((operation) => operation.parameters)) {
    if (parameter.role === 'request-id') headers.requestId ??= parameter.name;
    if (parameter.role === 'conversation-id') headers.conversationId ??= parameter.name;
  }
  return headers;
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
  const spec = describeSpec(document);
  const names = constantNames(spec.operations);
  const ids = [...names.values()];
  const typed = ids.length > 0 && options.standalone !== true;
  // A spec without operations (the shared components, generated into core) imports nothing.
  const lines = typed
    ? ["import type { OperationDescription, ServiceDescription } from '@partner-apis/core';", '']
    : [];
  for (const operation of spec.operations) {
    const id = names.get(operation.operationId);
    lines.push(
      `/** ${operation.summary ?? operation.operationId}: \`${operation.method} ${operation.path}\`. */`,
      `export const ${id} = ${literal(tableEntry(operation))} as const${typed ? ' satisfies OperationDescription' : ''};`,
      '',
    );
  }
  if (ids.length > 0) {
    lines.push(
      '/** Every operation of the spec by operationId: the table clients, sandbox and CLI share. */',
      `export const operations = { ${spec.operations.map((o) => (names.get(o.operationId) === o.operationId ? o.operationId : `${JSON.stringify(o.operationId)}: ${names.get(o.operationId)}`)).join(', ')} } as const;`,
      '',
    );
  }
  if (spec.rateLimitTiers !== undefined) {
    lines.push(
      '/** Calls per second of each tier of the client application (`x-rate-limit-tiers`). */',
      `export const rateLimitTiers = ${literal(spec.rateLimitTiers)} as const;`,
      '',
    );
  }
  if (ids.length > 0) {
    lines.push(
      '/** The security schemes the operations name, as a client applies them. */',
      `export const securitySchemes = ${literal(spec.securitySchemes)} as const;`,
      '',
      '/** The headers the client sets itself on the operations that declare them (`x-tracing`). */',
      `export const tracingHeaders = ${literal(tracingHeaders(spec.operations))} as const;`,
      '',
      '/** What a client of this spec needs at run time, as `createServiceClient` takes it. */',
      `export const service = { operations, securitySchemes, tracingHeaders } as const${typed ? ' satisfies ServiceDescription' : ''};`,
      '',
    );
  }
  if (spec.oauth2Scopes.length > 0) {
    lines.push(
      '/** The OAuth 2.0 scopes the spec requires of every request. */',
      `export const oauth2Scopes = ${literal(spec.oauth2Scopes)} as const;`,
      '',
    );
  }
  lines.push(
    '/** The `default` and `enum` of the named schemas that have one. */',
    `export const schemaValues = ${literal(spec.schemaValues)} as const;`,
    '',
  );
  return lines.join('\n');
}
