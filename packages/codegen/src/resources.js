// @ts-check
/**
 * Renders a service's resource layer: one `<resource>.<verb>()` per operation of its spec, typed
 * by openapi-typescript's `operations` and sent through core's `operationMethod` (or, for a
 * paged read, `pagedRead`). The method's name, its arguments and its TSDoc come from the
 * operation model, so a new operation reaches users by a spec edit alone.
 */
import { describeSpec } from '@partner-apis/spec-model';
import { constantNames } from './operations.js';
import { FILE_TYPE, refName, schemaName, schemaTypes, tsdoc } from './schema-types.js';

/** @typedef {import('@partner-apis/spec-model').OperationModel} OperationModel */
/** @typedef {import('@partner-apis/spec-model').ParameterModel} ParameterModel */

/**
 * A TypeScript identifier for a parameter name (`quote-id` → `quoteId`).
 * @param {string} name
 */
function identifier(name) {
  const camel = name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ''));
  return /^[A-Za-z_$]/.test(camel) ? camel : `_${camel}`;
}

/** @param {string} name */
function capitalized(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** @param {ParameterModel | undefined} parameter */
function parameterType(parameter) {
  const { type, enum: values } = parameter?.constraints ?? {};
  if (Array.isArray(values)) return values.map((v) => JSON.stringify(v)).join(' | ');
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'string';
}

/**
 * A parameter as a property of a named params interface, under the name the spec gives it
 * (`'X-Marketplace-Id'`): typed from its schema (a `Date` also for a date), documented by its
 * description.
 * @param {ParameterModel} parameter
 */
function paramProperty(parameter) {
  const { format } = parameter.constraints;
  const date = format === 'date' || format === 'date-time' ? ' | Date' : '';
  const docs = parameter.description ? tsdoc([parameter.description], '  ') : [];
  const optional = parameter.required ? '' : '?';
  return [
    ...docs,
    `  ${JSON.stringify(parameter.name)}${optional}: ${parameterType(parameter)}${date};`,
  ];
}

/**
 * The parameters a caller gives in the params object: all but the path's and those the client
 * sets itself.
 * @param {OperationModel} operation
 */
function callerParameters(operation) {
  return operation.parameters.filter((p) => p.in !== 'path' && p.role === undefined);
}

/**
 * The named type of a schema: its component's name, `Name[]` for an array of one, else
 * `fallback`, so editors show `Quote` rather than what it expands to.
 * @param {unknown} schema
 * @param {string} fallback
 */
function namedType(schema, fallback) {
  const name = refName(schema);
  if (name !== undefined) return schemaName(name);
  const items = /** @type {{ type?: unknown, items?: unknown }} */ (schema ?? {});
  const item = items.type === 'array' ? refName(items.items) : undefined;
  return item === undefined ? fallback : `${schemaName(item)}[]`;
}

/**
 * openapi-typescript's type of an operation's part, as an indexed access of `operations`.
 * @param {OperationModel} operation
 * @param {string} path e.g. `["responses"][200]`
 */
function operationType(operation, path) {
  return `Operations[${JSON.stringify(operation.operationId)}]${path}`;
}

/**
 * The type of an operation's request body, by its media type.
 * @param {OperationModel} operation
 */
function bodyType(operation) {
  const { body } = operation;
  if (body === undefined) return 'never';
  if (body.kind === 'binary') return FILE_TYPE;
  if (body.kind === 'text') return 'string';
  const fallback = `NonNullable<${operationType(operation, '["requestBody"]')}>["content"][${JSON.stringify(body.mediaType)}]`;
  return body.kind === 'json' ? namedType(body.schema, fallback) : fallback;
}

/**
 * The type of a success answer's body, by its media type: JSON typed by its schema, text a
 * string, bytes a `Blob`, none `void`.
 * @param {OperationModel} operation
 */
function answerType(operation) {
  const { success } = operation;
  if (success === undefined || success.kind === 'none') return 'void';
  if (success.kind === 'text') return 'string';
  if (success.kind !== 'json') return 'Blob';
  return namedType(success.schema, jsonAnswer(operation));
}

/**
 * openapi-typescript's type of the JSON body of an operation's success answer.
 * @param {OperationModel} operation
 */
function jsonAnswer(operation) {
  const { key = '200', mediaType = 'application/json' } = operation.success ?? {};
  const status = /^\d+$/.test(key) ? key : JSON.stringify(key.toUpperCase());
  return operationType(
    operation,
    `["responses"][${status}]["content"][${JSON.stringify(mediaType)}]`,
  );
}

/**
 * The path parameters of an operation as a method's first parameters, in path order.
 * @param {OperationModel} operation
 */
function pathParams(operation) {
  return operation.arguments.flatMap((argument) => {
    if (argument.in !== 'path') return [];
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === argument.name);
    return [`${identifier(argument.name)}: ${parameterType(parameter)}`];
  });
}

/**
 * The signature pieces of a plain operation: its arguments in the order the model gives them,
 * each of a named type where the spec names its schema, and the params interface it declares.
 * @param {OperationModel} operation
 * @param {string} resource
 */
function signature(operation, resource) {
  const { verb } = operation.clientMethod;
  const paramsName = `${capitalized(resource)}${capitalized(verb)}Params`;
  const params = pathParams(operation);
  const args = params.map((param) => param.split(':')[0] ?? '');
  /** @type {string[]} */
  const declarations = [];
  for (const argument of operation.arguments) {
    if (argument.in === 'body') {
      params.push(`body${argument.required ? '' : '?'}: ${bodyType(operation)}`);
      args.push('body');
    } else if (argument.in === 'params') {
      declarations.push(
        `/** The parameters of \`${resource}.${verb}()\`, as the spec declares them. */`,
        `export interface ${paramsName} {`,
        ...callerParameters(operation).flatMap(paramProperty),
        '}',
      );
      params.push(`params${argument.required ? '' : '?'}: ${paramsName}`);
      args.push(argument.required ? 'params' : '{ … }');
    }
  }
  params.push('options?: CallOptions');
  return { params, args, returns: `ApiPromise<${answerType(operation)}>`, declarations };
}

/**
 * The named options of a paged read (`<Resource>ListOptions`, `…PageOptions`, `…SyncOptions`):
 * its filters, plus what each method adds, so a hover reads like a hand-written type.
 * @param {OperationModel} operation
 * @param {string} base the names' prefix, e.g. `Locations`
 */
function pagedOptionTypes(operation, base) {
  const resource = operation.clientMethod.resource;
  const given = callerParameters(operation);
  const filters = given.filter((p) => p.paging === undefined);
  const paging = given.filter((p) => p.paging !== undefined);
  const lines = [
    `/** The filters of \`${resource}\`: its parameters but the paging ones. */`,
    `export interface ${base}Filters {`,
    ...filters.flatMap(paramProperty),
    '}',
    `/** Options of \`${resource}.list()\`: the filters, paging and the call's options. */`,
    `export interface ${base}ListOptions extends ${base}Filters, ListCallOptions {}`,
    `/** Options of \`${resource}.page()\`: the filters, the page's size and position, and the call's options. */`,
    `export interface ${base}PageOptions extends ${base}Filters, CallOptions {`,
    ...paging.flatMap(paramProperty),
    '}',
  ];
  if (operation.paging?.syncable) {
    const watermarks = filters.filter((p) => p.sync === 'watermark');
    const omitted = watermarks.map((p) => JSON.stringify(p.name)).join(' | ');
    lines.push(
      `/** Options of \`${resource}.sync()\`: the filters but the watermark, and where to start. */`,
      `export interface ${base}SyncOptions extends Omit<${base}Filters, ${omitted}>, SyncRunOptions {}`,
    );
  }
  return lines;
}

/**
 * The type of a paged read: `list()`, `page()` and, where it can, `sync()`, with named options
 * and the path parameters first. A record is typed by where the spec's answer holds it (the
 * array, or the envelope's records property), so it is never `| undefined`.
 * @param {OperationModel} operation
 * @param {string} base the named options' prefix, e.g. `Locations`
 */
function pagedReadType(operation, base) {
  const records = operation.paging?.records;
  const envelope = jsonAnswer(operation);
  const record = namedType(
    operation.paging?.item,
    records
      ? `NonNullable<${envelope}[${JSON.stringify(records)}]>[number]`
      : `${envelope}[number]`,
  );
  const envelopeType = records ? `, ${namedType(operation.success?.schema, envelope)}` : '';
  const params = pathParams(operation)
    .map((param) => `${param}, `)
    .join('');
  const members = [
    `list(${params}options?: ${base}ListOptions): Paginated<${record}>`,
    `page(${params}options?: ${base}PageOptions): ApiPromise<RecordsPage<${record}${envelopeType}>>`,
    ...(operation.paging?.syncable
      ? [`sync(${params}options?: ${base}SyncOptions): SyncRun<${record}>`]
      : []),
  ];
  return `{ ${members.join('; ')} }`;
}

/**
 * The TSDoc tag of an operation the spec marks `deprecated`.
 * @param {OperationModel} operation
 */
function deprecation(operation) {
  return operation.deprecated ? ['@deprecated The upstream marks this operation deprecated.'] : [];
}

/** @param {string} text */
function sentence(text) {
  return `${text}.`.replace(/\.\.$/, '.');
}

/**
 * The members of one resource in the `Resources` interface, the declarations they name, and
 * the builder of its methods.
 * @param {string} resource
 * @param {readonly OperationModel[]} operations
 * @param {Map<string, string>} names the constant of each operationId in `operations.ts`
 */
function renderResource(resource, operations, names) {
  const paged = operations.find((operation) => operation.paging !== undefined);
  const plain = operations.filter((operation) => operation.paging === undefined);
  /** @type {string[]} */
  const declarations = [];
  const members = plain.flatMap((operation) => {
    const { verb } = operation.clientMethod;
    const { params, args, returns, declarations: own } = signature(operation, resource);
    declarations.push(...own);
    const docs = [
      ...(operation.summary ? [sentence(operation.summary)] : []),
      ...(operation.description ? [operation.description] : []),
      `\`${operation.method} ${operation.path}\``,
      `@example\nconst result = await client.${resource}.${verb}(${args.join(', ')});`,
      ...deprecation(operation),
    ];
    return [...tsdoc(docs, '    '), `    ${verb}(${params.join(', ')}): ${returns};`];
  });
  const entries = plain.map(
    (operation) =>
      `      ${operation.clientMethod.verb}: operationMethod(client, ${names.get(operation.operationId)}),`,
  );
  /** @type {string[]} */
  let head = [];
  let type = `{\n${members.join('\n')}\n  }`;
  let builder = `    ${resource}: {\n${entries.join('\n')}\n    },`;
  if (paged !== undefined) {
    const base = capitalized(resource);
    declarations.push(...pagedOptionTypes(paged, base));
    const pagedType = pagedReadType(paged, base);
    type = members.length === 0 ? pagedType : `${pagedType} & ${type}`;
    const read = `pagedRead(client, ${names.get(paged.operationId)}, paging)`;
    builder =
      entries.length === 0
        ? `    ${resource}: ${read},`
        : `    ${resource}: {\n      ...${read},\n${entries.join('\n')}\n    },`;
    const path = pathParams(paged)
      .map((param) => param.split(':')[0])
      .join(', ');
    head = [
      `\`list()\` pages through every record (\`${paged.method} ${paged.path}\`), \`page()\` reads one page.`,
      ...(paged.description ? [paged.description] : []),
      `@example\nfor await (const record of client.${resource}.list(${path})) console.log(record);`,
      ...deprecation(paged),
    ];
  }
  const title =
    paged === undefined
      ? `\`${resource}\`: ${plain.map((o) => `\`${o.clientMethod.verb}()\``).join(', ')}`
      : (paged.summary ?? resource);
  return {
    member: [...tsdoc([sentence(title), ...head], '  '), `  readonly ${resource}: ${type};`],
    declarations,
    builder,
  };
}

/**
 * The source of `src/generated/resources.ts`.
 * @param {Record<string, unknown>} document bundled
 */
export function renderResources(document) {
  const { operations } = describeSpec(document);
  /** @type {Map<string, OperationModel[]>} */
  const resources = new Map();
  for (const operation of operations) {
    const { resource } = operation.clientMethod;
    resources.set(resource, [...(resources.get(resource) ?? []), operation]);
  }
  const names = constantNames(operations);
  const rendered = [...resources].map(([name, list]) => renderResource(name, list, names));
  const anyPaged = operations.some((operation) => operation.paging !== undefined);
  const schemas = schemaTypes(document);
  const body = [
    ...schemas.types,
    '',
    ...rendered.flatMap((r) => r.declarations),
    '',
    '/** Every operation of the spec as `<resource>.<verb>()`, named and documented by the spec. */',
    'export interface Resources {',
    ...rendered.flatMap((r) => r.member),
    '}',
    '',
    '/**',
    ' * Builds every resource of the spec over one service client.',
    ' *',
    ' * @example',
    ' * const resources = createResources(serviceClient);',
    ' */',
    `export function createResources(client: ResourceClient${anyPaged ? ', paging?: PagingOptions' : ''}): Resources {`,
    '  return {',
    ...rendered.map((r) => r.builder),
    '  };',
    '}',
    '',
    ...schemas.check,
  ].join('\n');
  // Each name of core's surface the file uses, and nothing else.
  const used = CORE_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  const values = ['operationMethod', 'pagedRead'];
  const imports = used.map((name) => (values.includes(name) ? name : `type ${name}`));
  const operationTypes = /\bOperations\[/.test(body) ? ', operations as Operations' : '';
  const ids = [...names.values()];
  return [
    `import {\n${imports.map((name) => `  ${name},\n`).join('')}} from '@partner-apis/core';`,
    `import type { components${operationTypes} } from './openapi.js';`,
    `import {\n${ids.map((id) => `  ${id},\n`).join('')}} from './operations.js';`,
    '',
    body,
  ].join('\n');
}

/** What generated resources may use of `@partner-apis/core`. */
const CORE_NAMES = [
  'operationMethod',
  'pagedRead',
  'ApiPromise',
  'CallOptions',
  'ListCallOptions',
  'Paginated',
  'PagingOptions',
  'RecordsPage',
  'ResourceClient',
  'SyncRun',
  'SyncRunOptions',
];
