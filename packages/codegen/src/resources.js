// @ts-check
/**
 * Renders a service's resource layer: one `<resource>.<verb>()` per operation of its spec, typed
 * by openapi-typescript's `operations` and sent through core's `operationMethod` (or, for a
 * paged read, `pagedRead`). The method's name, its parameters and its TSDoc come
 * from the spec, so a new operation reaches users by a spec edit alone.
 */
import { describeSpec, isObject } from '@partner-apis/spec-model';
import { clientMethod } from './operations.js';
import { refName, schemaTypes, tsdoc } from './schema-types.js';

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

/** @param {ParameterModel | undefined} parameter */
function parameterType(parameter) {
  const { type, enum: values } = parameter?.constraints ?? {};
  if (Array.isArray(values)) return values.map((v) => JSON.stringify(v)).join(' | ');
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'string';
}

/**
 * The signature pieces of a plain operation: its arguments, in the order the model gives them,
 * each of a named type where the spec names its schema, and the named query type it declares.
 * @param {OperationModel & { verb: string }} d
 * @param {string} resource
 */
function signature(d, resource) {
  const op = `Operations[${JSON.stringify(d.operationId)}]`;
  const queryName = `${capitalized(resource)}${capitalized(d.verb)}Query`;
  const params = [];
  const args = [];
  /** @type {string[]} */
  const declarations = [];
  for (const argument of d.arguments) {
    if (argument.in === 'path') {
      const parameter = d.parameters.find((p) => p.in === 'path' && p.name === argument.name);
      params.push(`${identifier(argument.name)}: ${parameterType(parameter)}`);
      args.push(identifier(argument.name));
    } else if (argument.in === 'body') {
      const body = namedType(d.body?.schema, `RequestBodyOf<${op}>`);
      params.push(`body${argument.required ? '' : '?'}: ${body}`);
      args.push('body');
    } else {
      declarations.push(
        `/** The query parameters of \`${resource}.${d.verb}()\`, as the spec declares them. */`,
        `export interface ${queryName} {`,
        ...d.parameters.filter((p) => p.in === 'query').flatMap(queryProperty),
        '}',
      );
      params.push(`query${argument.required ? '' : '?'}: ${queryName}`);
      args.push(argument.required ? 'query' : '{ … }');
    }
  }
  params.push('options?: CallOptions');
  const returns = `ApiPromise<${namedType(d.success?.schema, `ResponseBodyOf<${op}>`)}>`;
  return { params, args, returns, declarations };
}

/** @param {string} name */
function capitalized(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The named type of a schema: its component's name, `Name[]` for an array of one, else
 * `fallback`, so editors show `Quote` rather than what it expands to.
 * @param {unknown} schema
 * @param {string} fallback
 */
function namedType(schema, fallback) {
  const name = refName(schema);
  if (name !== undefined) return name;
  const item = isObject(schema) && schema.type === 'array' ? refName(schema.items) : undefined;
  return item === undefined ? fallback : `${item}[]`;
}

/**
 * A query parameter as a property of a named options interface: typed from its schema (a
 * `Date` also for a date), documented by its description.
 * @param {ParameterModel} parameter
 */
function queryProperty(parameter) {
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
 * The named options of a paged read (`<Resource>ListOptions`, `…PageOptions`, `…SyncOptions`):
 * its filters, plus what each method adds, so a hover reads like a hand-written type.
 * @param {OperationModel} d
 * @param {string} resource
 */
function pagedOptionTypes(d, resource) {
  const base = resource.charAt(0).toUpperCase() + resource.slice(1);
  const query = d.parameters.filter((p) => p.in === 'query');
  const filters = query.filter((p) => p.paging === undefined);
  const paging = query.filter((p) => p.paging !== undefined);
  const watermarks = filters.filter((p) => p.sync === 'watermark').map((p) => p.name);
  const lines = [
    `/** The filters of \`${resource}\`: its query parameters but the paging ones. */`,
    `export interface ${base}Filters {`,
    ...filters.flatMap(queryProperty),
    '}',
    `/** Options of \`${resource}.list()\`: the filters, paging and the call's options. */`,
    `export interface ${base}ListOptions extends ${base}Filters, ListCallOptions {}`,
    `/** Options of \`${resource}.page()\`: the filters, the page's size and position, and the call's options. */`,
    `export interface ${base}PageOptions extends ${base}Filters, CallOptions {`,
    ...paging.flatMap(queryProperty),
    '}',
  ];
  if (d.paging?.syncable) {
    const omitted = watermarks.map((name) => JSON.stringify(name)).join(' | ');
    lines.push(
      `/** Options of \`${resource}.sync()\`: the filters but the watermark, and where to start. */`,
      `export interface ${base}SyncOptions extends Omit<${base}Filters, ${omitted || 'never'}>, SyncRunOptions {}`,
    );
  }
  return { base, lines };
}

/**
 * The TSDoc tag of an operation the spec marks `deprecated`.
 * @param {OperationModel} operation
 */
function deprecation(operation) {
  return operation.deprecated ? ['@deprecated The upstream marks this operation deprecated.'] : [];
}

/**
 * The path parameters a paged read under a parent takes first, as in an example call.
 * @param {OperationModel} d
 */
function pathArguments(d) {
  const names = d.arguments.filter((a) => a.in === 'path').map((a) => `${identifier(a.name)}`);
  return names.length === 0 ? '' : `${names.join(', ')}`;
}

/**
 * The type of a paged read: `list()`, `page()` and, where it can, `sync()`, with named options
 * and the path parameters first. A record is typed by where the spec's answer holds it (the
 * array, or the envelope's records property), so it is never `| undefined`.
 * @param {OperationModel} d
 * @param {string} base the named options' prefix, e.g. `Locations`
 */
function pagedReadType(d, base) {
  const op = `Operations[${JSON.stringify(d.operationId)}]`;
  const records = d.paging?.records;
  const record = namedType(
    d.paging?.item,
    `RecordOf<${op}${records ? `, ${JSON.stringify(records)}` : ''}>`,
  );
  const envelope = records ? `, ${namedType(d.success?.schema, `EnvelopeOf<${op}>`)}` : '';
  const params = d.arguments
    .filter((a) => a.in === 'path')
    .map((a) => {
      const parameter = d.parameters.find((p) => p.in === 'path' && p.name === a.name);
      return `${identifier(a.name)}: ${parameterType(parameter)}, `;
    })
    .join('');
  const members = [
    `list(${params}options?: ${base}ListOptions): Paginated<${record}>`,
    `page(${params}options?: ${base}PageOptions): ApiPromise<RecordsPage<${record}${envelope}>>`,
    ...(d.paging?.syncable
      ? [`sync(${params}options?: ${base}SyncOptions): SyncRun<${record}>`]
      : []),
  ];
  return `{ ${members.join('; ')} }`;
}

/** @param {OperationModel} operation */
function isPaged(operation) {
  return operation.paging !== undefined;
}

/**
 * The source of `src/generated/resources.ts`.
 * @param {Record<string, unknown>} document bundled
 */
export function renderResources(document) {
  const { operations } = describeSpec(document);
  /** @type {Map<string, (OperationModel & { resource: string, verb: string })[]>} */
  const resources = new Map();
  for (const operation of operations) {
    const description = { ...operation, ...clientMethod(operation) };
    const list = resources.get(description.resource) ?? [];
    const verbs = isPaged(description) ? ['list', 'page', 'sync'] : [description.verb];
    for (const other of list) {
      const taken = isPaged(other) ? ['list', 'page', 'sync'] : [other.verb];
      const clash = verbs.find((v) => taken.includes(v));
      if (clash !== undefined) {
        throw new Error(
          `${description.operationId} and ${other.operationId} are both ${description.resource}.${clash}(): ` +
            'name one with x-client-method',
        );
      }
    }
    resources.set(description.resource, [...list, description]);
  }
  const ids = operations.map((operation) => operation.operationId);
  const anyPaged = operations.some(isPaged);
  /** @type {string[]} */
  const lines = [
    '/** Every operation of the spec as `<resource>.<verb>()`, named and documented by the spec. */',
    'export interface Resources {',
  ];
  /** @type {string[]} */
  const declarations = [];
  /** @type {string[]} */
  const builders = [];
  for (const [resource, descriptions] of resources) {
    const paged = descriptions.find(isPaged);
    const plain = descriptions.filter((d) => !isPaged(d));
    const members = [];
    for (const d of plain) {
      const { params, args, returns, declarations: own } = signature(d, resource);
      declarations.push(...own);
      const docs = [
        ...(d.summary ? [`${d.summary}.`.replace(/\.\.$/, '.')] : []),
        ...(d.description ? [d.description] : []),
        `\`${d.method} ${d.path}\``,
        `@example\nconst result = await client.${resource}.${d.verb}(${args.join(', ')});`,
        ...deprecation(d),
      ];
      members.push(...tsdoc(docs, '    '), `    ${d.verb}(${params.join(', ')}): ${returns};`);
    }
    let pagedType;
    if (paged !== undefined) {
      const options = pagedOptionTypes(paged, resource);
      declarations.push(...options.lines);
      pagedType = pagedReadType(paged, options.base);
    }
    const title =
      paged === undefined
        ? `\`${resource}\`: ${plain.map((d) => `\`${d.verb}()\``).join(', ')}`
        : (paged.summary ?? resource);
    const pagedDocs =
      paged === undefined
        ? []
        : [
            `\`list()\` pages through every record (\`${paged.method} ${paged.path}\`), \`page()\` reads one page.`,
            ...(paged.description ? [paged.description] : []),
            `@example\nfor await (const record of client.${resource}.list(${pathArguments(paged)})) console.log(record);`,
            ...deprecation(paged),
          ];
    lines.push(...tsdoc([`${title}.`.replace(/\.\.$/, '.'), ...pagedDocs], '  '));
    if (members.length === 0) {
      lines.push(`  readonly ${resource}: ${pagedType};`);
    } else {
      lines.push(
        `  readonly ${resource}: ${pagedType === undefined ? '' : `${pagedType} & `}{`,
        ...members,
        '  };',
      );
    }
    const entries = plain.map(
      (d) =>
        `      ${d.verb}: operationMethod<Resources[${JSON.stringify(resource)}][${JSON.stringify(d.verb)}]>(client, ${d.operationId}),`,
    );
    if (paged !== undefined) {
      const read = `pagedRead<Resources[${JSON.stringify(resource)}]>(client, ${paged.operationId}, paging)`;
      builders.push(
        entries.length === 0
          ? `    ${resource}: ${read},`
          : `    ${resource}: {\n      ...${read},\n${entries.join('\n')}\n    },`,
      );
    } else {
      builders.push(`    ${resource}: {\n${entries.join('\n')}\n    },`);
    }
  }
  lines.push(
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
    ...builders,
    '  };',
    '}',
    '',
  );
  const schemas = schemaTypes(document);
  const body = [...schemas.types, '', ...declarations, '', ...lines, ...schemas.check].join('\n');
  // Each name of core's surface the file uses, and nothing else.
  const used = CORE_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  const values = ['operationMethod', 'pagedRead'];
  const imports = used.map((name) => (values.includes(name) ? name : `type ${name}`));
  const operationTypes = /\bOperations\[/.test(body) ? ', operations as Operations' : '';
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
  'EnvelopeOf',
  'ListCallOptions',
  'Paginated',
  'PagingOptions',
  'RecordOf',
  'RecordsPage',
  'RequestBodyOf',
  'ResourceClient',
  'ResponseBodyOf',
  'SyncRun',
  'SyncRunOptions',
];
