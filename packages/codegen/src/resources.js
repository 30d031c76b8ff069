// @ts-check
/**
 * Renders a service's resource layer: one `<resource>.<verb>()` per operation of its spec, typed
 * by openapi-typescript's `operations` and sent through core's `operationMethod` (or, for a
 * paged read, `pagedRead`). The method's name, its parameters and its TSDoc come
 * from the spec, so a new operation reaches users by a spec edit alone.
 */
import { describeSpec } from '@partner-apis/spec-model';
import { clientMethod } from './operations.js';

/** @typedef {import('@partner-apis/spec-model').OperationModel} OperationModel */
/** @typedef {import('@partner-apis/spec-model').ParameterModel} ParameterModel */

/**
 * `text` as the lines of a TSDoc comment at `indent`.
 * @param {string[]} paragraphs
 * @param {string} indent
 */
function tsdoc(paragraphs, indent) {
  const body = paragraphs
    .join('\n\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`);
  return [`${indent}/**`, ...body, `${indent} */`];
}

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
 * The signature pieces of a plain operation: its arguments, in the order the model gives them.
 * @param {OperationModel} d
 */
function signature(d) {
  const op = `Operations[${JSON.stringify(d.operationId)}]`;
  const params = [];
  const args = [];
  for (const argument of d.arguments) {
    if (argument.in === 'path') {
      const parameter = d.parameters.find((p) => p.in === 'path' && p.name === argument.name);
      params.push(`${identifier(argument.name)}: ${parameterType(parameter)}`);
      args.push(identifier(argument.name));
    } else if (argument.in === 'body') {
      params.push(`body${argument.required ? '' : '?'}: RequestBodyOf<${op}>`);
      args.push('body');
    } else {
      const type = `CallQuery<${op}, typeof ${d.operationId}>`;
      params.push(`query${argument.required ? '' : '?'}: ${type}`);
      args.push(argument.required ? 'query' : '{ … }');
    }
  }
  params.push('options?: CallOptions');
  return { params, args, returns: `ApiPromise<ResponseBodyOf<${op}>>` };
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
 * The type of a paged read: `PagedRead`, or, under path parameters, its methods taking them
 * first. A record is typed by where the spec's answer holds it (the array, or the envelope's
 * records property), so it is never `| undefined`.
 * @param {OperationModel} d
 */
function pagedReadType(d) {
  const op = `Operations[${JSON.stringify(d.operationId)}]`;
  const records = d.paging?.records;
  const record = `RecordOf<${op}${records ? `, ${JSON.stringify(records)}` : ''}>`;
  const query = `QueryOf<${op}>`;
  const described = `typeof ${d.operationId}`;
  const inPath = d.arguments.filter((a) => a.in === 'path');
  if (inPath.length === 0) {
    return `PagedRead<${record}, ${query}, ${described}, EnvelopeOf<${op}>>`;
  }
  const params = inPath
    .map((a) => {
      const parameter = d.parameters.find((p) => p.in === 'path' && p.name === a.name);
      return `${identifier(a.name)}: ${parameterType(parameter)}`;
    })
    .join(', ');
  const members = [
    `list(${params}, options?: ListOptions<${query}, ${described}>): Paginated<${record}>`,
    `page(${params}, options?: PageOptions<${query}, ${described}>): ApiPromise<RecordsPage<${record}, EnvelopeOf<${op}>>>`,
    ...(d.paging?.syncable
      ? [`sync(${params}, options?: SyncOptions<${query}, ${described}>): SyncRun<${record}>`]
      : []),
  ];
  return `{ ${members.join('; ')} }`;
}

/** @param {OperationModel} operation */
function hasPath(operation) {
  return operation.arguments.some((a) => a.in === 'path');
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
  const anyPlain = operations.some((d) => !isPaged(d));
  const anyPagedUnderPath = operations.some((d) => isPaged(d) && hasPath(d));
  const imports = [
    ...(anyPlain ? ['operationMethod'] : []),
    ...(anyPaged ? ['pagedRead'] : []),
    ...(anyPlain
      ? [
          'type ApiPromise',
          'type CallOptions',
          'type CallQuery',
          'type RequestBodyOf',
          'type ResponseBodyOf',
        ]
      : []),
    ...(anyPaged
      ? ['type EnvelopeOf', 'type PagedRead', 'type PagingOptions', 'type QueryOf', 'type RecordOf']
      : []),
    ...(anyPagedUnderPath
      ? [
          ...(anyPlain ? [] : ['type ApiPromise']),
          'type ListOptions',
          'type PageOptions',
          'type Paginated',
          'type RecordsPage',
          ...(operations.some((d) => isPaged(d) && d.paging?.syncable && hasPath(d))
            ? ['type SyncOptions', 'type SyncRun']
            : []),
        ]
      : []),
    'type ResourceClient',
  ];
  const lines = [
    `import {\n${imports.map((name) => `  ${name},\n`).join('')}} from '@partner-apis/core';`,
    "import type { operations as Operations } from './openapi.js';",
    `import {\n${ids.map((id) => `  ${id},\n`).join('')}} from './operations.js';`,
    '',
    '/** Every operation of the spec as `<resource>.<verb>()`, named and documented by the spec. */',
    'export interface Resources {',
  ];
  /** @type {string[]} */
  const builders = [];
  for (const [resource, descriptions] of resources) {
    const paged = descriptions.find(isPaged);
    const plain = descriptions.filter((d) => !isPaged(d));
    const members = [];
    for (const d of plain) {
      const { params, args, returns } = signature(d);
      const docs = [
        ...(d.summary ? [`${d.summary}.`.replace(/\.\.$/, '.')] : []),
        ...(d.description ? [d.description] : []),
        `\`${d.method} ${d.path}\``,
        `@example\nconst result = await client.${resource}.${d.verb}(${args.join(', ')});`,
        ...deprecation(d),
      ];
      members.push(...tsdoc(docs, '    '), `    ${d.verb}(${params.join(', ')}): ${returns};`);
    }
    const pagedType = paged === undefined ? undefined : pagedReadType(paged);
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
  return lines.join('\n');
}
