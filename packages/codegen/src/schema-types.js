// @ts-check
/**
 * Names each component schema of a spec as a type of its own whose fields name the other
 * schemas (`invoiceDetails?: InvoiceDetails`) and carry the spec's descriptions, so that an
 * editor's hover shows a name at any depth, never openapi-typescript's `components["schemas"][…]`.
 *
 * Each type spells the one openapi-typescript 7 gives the schema with its default options. The
 * rendered file checks that the two are assignable both ways, so where the generators drift
 * apart the build fails rather than a hover misleading a user.
 *
 * Object types are aliases of object literal types, not interfaces: a hover shows an alias's name
 * as well, and unlike an interface a literal type is assignable to `Record<string, unknown>`,
 * which openapi-typescript's types are and code that handles records generically relies on.
 */
import { isObject } from '@partner-apis/spec-model';

const SCHEMA_REF = '#/components/schemas/';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * What a file is typed as, in a request body or a schema of `format: binary` (or 3.1's
 * `contentMediaType`): anything core reads into bytes. openapi-typescript is told the same.
 */
export const FILE_TYPE =
  'Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>';

/**
 * Names a generated type may not take, since it would shadow a global or a name the generated
 * file imports: a schema so named is typed as `<Name>Model` (`Date` → `DateModel`).
 */
const TAKEN_NAMES = new Set([
  ...['Array', 'ArrayBuffer', 'BigInt', 'Blob', 'Boolean', 'Date', 'Error', 'File', 'FormData'],
  ...['Function', 'Headers', 'Iterable', 'JSON', 'Map', 'Math', 'Number', 'Object', 'Omit'],
  ...['Partial', 'Pick', 'Promise', 'Readonly', 'ReadableStream', 'Record', 'RegExp', 'Request'],
  ...['Required', 'Response', 'Set', 'String', 'Symbol', 'URL', 'Uint8Array', 'WeakMap'],
  ...['AbortSignal', 'AsyncIterable', 'NonNullable', 'Exclude', 'Extract'],
  ...['ApiPromise', 'CallOptions', 'ListCallOptions', 'Paginated', 'PagingOptions'],
  ...['RecordsPage', 'ResourceClient', 'SyncRun', 'SyncRunOptions', 'Resources', 'Operations'],
  ...['Schemas', 'Assignable', 'Mirrored', 'components'],
]);

/** Keywords openapi-typescript types in ways not spelled here: a schema using one stays its alias. */
const UNMIRRORED = ['patternProperties', '$defs', 'prefixItems'];

/** The types openapi-typescript counts as primitive when it joins `oneOf` to a schema's type. */
const PRIMITIVES = ['boolean', 'never', 'null', 'number', 'string'];

/**
 * A type as a union of intersections of operands, e.g. `[['A', 'B'], ['null']]` for
 * `A & B | null`, so that parentheses go only where a union or intersection is an operand.
 * @typedef {string[][]} Type
 */

/**
 * The lines of a TSDoc comment of `paragraphs` at `indent`.
 * @param {string[]} paragraphs
 * @param {string} indent
 */
export function tsdoc(paragraphs, indent) {
  const body = paragraphs
    .join('\n\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`);
  return [`${indent}/**`, ...body, `${indent} */`];
}

/**
 * The component schema a `$ref` names, e.g. `Location`.
 * @param {unknown} schema
 */
export function refName(schema) {
  return isObject(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith(SCHEMA_REF)
    ? schema.$ref.slice(SCHEMA_REF.length)
    : undefined;
}

/**
 * The named types of a spec's component schemas, each documented by its description, and the
 * check that each is assignable to and from openapi-typescript's type of its schema.
 * @param {Record<string, unknown>} document bundled
 */
export function schemaTypes(document) {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const named = Object.entries(schemas).filter(([name]) => IDENTIFIER.test(name));
  const spelled = hasDiscriminator(document)
    ? []
    : named.filter(([, schema]) => mirrored(schema)).map(([name]) => name);
  return {
    types: named.flatMap(([name, schema]) => {
      const type = spelled.includes(name) ? print(typeOf(schema, '')) : openapiType(name);
      return [...described(schema, ''), `export type ${schemaName(name)} = ${type};`];
    }),
    check: spelled.length === 0 ? [] : mirrorCheck(spelled),
  };
}

/**
 * Whether a discriminator appears anywhere in the document: openapi-typescript then adds its
 * property to the schemas it reaches, which is not spelled here, so none is.
 * @param {unknown} value
 * @returns {boolean}
 */
function hasDiscriminator(value) {
  if (Array.isArray(value)) return value.some(hasDiscriminator);
  return (
    isObject(value) &&
    (isObject(value.discriminator) || Object.values(value).some(hasDiscriminator))
  );
}

/**
 * The check that each named type is openapi-typescript's under another spelling.
 * @param {string[]} names
 */
function mirrorCheck(names) {
  return [
    "/** openapi-typescript's type of each schema, which the named types spell with names. */",
    'type Schemas = components["schemas"];',
    '/** `T`, which must be assignable to `U`. */',
    'type Assignable<T extends U, U> = T;',
    "/** Fails to compile where a named type and openapi-typescript's type of its schema differ. */",
    'type Mirrored = [',
    ...names.map((name) => {
      const schema = `Schemas[${JSON.stringify(name)}]`;
      return `  Assignable<${schemaName(name)}, ${schema}>, Assignable<${schema}, ${schemaName(name)}>,`;
    }),
    '];',
    '',
  ];
}

/**
 * Whether every keyword of `schema` (and of the schemas inside it) that shapes its type is one
 * spelled here.
 * @param {unknown} schema
 * @returns {boolean}
 */
function mirrored(schema) {
  if (!isObject(schema)) return true;
  if (UNMIRRORED.some((keyword) => keyword in schema)) return false;
  if (typeof schema.$ref === 'string' && refName(schema) === undefined) return false;
  // openapi-typescript wraps an allOf's `$ref` in `WithRequired` for the properties around it.
  if (Array.isArray(schema.required) && list(schema.allOf).some(refName)) return false;
  // It drops from a list of types those a oneOf part also gives.
  if (Array.isArray(schema.type) && schema.oneOf !== undefined) return false;
  const properties = isObject(schema.properties) ? Object.values(schema.properties) : [];
  return [
    schema.items,
    schema.additionalProperties,
    ...properties,
    ...list(schema.allOf),
    ...list(schema.anyOf),
    ...list(schema.oneOf),
  ].every(mirrored);
}

/**
 * The type openapi-typescript gives `schema`, with each component schema by name.
 * @param {unknown} schema
 * @param {string} indent where an object type's closing brace goes
 * @returns {Type}
 */
function typeOf(schema, indent) {
  if (schema === true) return atom('unknown');
  if (!isObject(schema)) return atom('never');
  const name = refName(schema);
  if (name !== undefined) return atom(schemaName(name));
  if (hasConst(schema)) return atom(JSON.stringify(schema.const));
  if (isFile(schema)) return atom(`(${FILE_TYPE})`);
  // openapi-typescript reads `enum` as the whole type unless the schema describes an object.
  const object =
    schema.type === 'object' || 'properties' in schema || 'additionalProperties' in schema;
  if (Array.isArray(schema.enum) && !object) {
    const nullable = list(schema.type).includes('null') || schema.nullable;
    const values = nullable ? [...schema.enum, null] : schema.enum;
    return union(values.map((value) => atom(JSON.stringify(value))));
  }
  const core = coreType(schema, indent);
  const allOf = list(schema.allOf).map((part) =>
    typeOf(isObject(part) && !refName(part) ? withRequired(part, schema.required) : part, indent),
  );
  /** @type {Type | undefined} */
  let type =
    core || allOf.length > 0 ? intersection([...(core ? [core] : []), ...allOf]) : undefined;
  const anyOf = list(schema.anyOf).map((part) => typeOf(part, indent));
  if (anyOf.length > 0) type = union([...(type ? [type] : []), ...anyOf]);
  const oneOf = list(schema.oneOf).map((part) => typeOf(part, indent));
  if (oneOf.length > 0) {
    // As openapi-typescript joins them: primitives widen the type, anything else narrows it.
    type = oneOf.every(isPrimitive)
      ? union([...(type ? [type] : []), ...oneOf])
      : intersection([...(type ? [type] : []), union(oneOf)]);
  }
  type ??= atom('type' in schema ? 'Record<string, never>' : 'unknown');
  return schema.nullable && print(type) !== 'unknown' ? union([type, atom('null')]) : type;
}

/**
 * The type a schema's `type` keyword and properties give it, before allOf, anyOf and oneOf.
 * @param {Record<string, unknown>} schema
 * @param {string} indent
 * @returns {Type | undefined}
 */
function coreType(schema, indent) {
  const { type } = schema;
  if (type === 'null' || type === 'string' || type === 'boolean') return atom(type);
  if (type === 'number' || type === 'integer') return atom('number');
  if (type === 'array') {
    const items = schema.items === undefined ? atom('unknown') : typeOf(schema.items, indent);
    return atom(`${operand(items)}[]`);
  }
  if (Array.isArray(type)) {
    return union(
      type.map((t) => (t === 'null' ? atom('null') : typeOf({ ...schema, type: t }, indent))),
    );
  }
  return objectType(schema, indent);
}

/**
 * An object type of a schema's properties and, where it allows others, an index signature
 * intersected with it, as openapi-typescript writes them; undefined where it has neither.
 * @param {Record<string, unknown>} schema
 * @param {string} indent
 * @returns {Type | undefined}
 */
function objectType(schema, indent) {
  const properties = propertyLines(schema, `${indent}  `);
  const index = indexType(schema, `${indent}  `);
  const parts = [
    ...(properties.length > 0 ? [atom(`{\n${properties.join('\n')}\n${indent}}`)] : []),
    ...(index ? [atom(`{\n${indent}  [key: string]: ${print(index)};\n${indent}}`)] : []),
  ];
  return parts.length === 0 ? undefined : intersection(parts);
}

/**
 * The type of the properties an object schema allows beside its own, if it allows any.
 * @param {Record<string, unknown>} schema
 * @param {string} indent
 */
function indexType(schema, indent) {
  const others = schema.additionalProperties;
  if (others === true || (isObject(others) && Object.keys(others).length === 0)) {
    return atom('unknown');
  }
  return isObject(others) ? typeOf(others, indent) : undefined;
}

/**
 * The lines of an object schema's properties at `indent`, each documented by its description.
 * A property with a default is required, as openapi-typescript's `defaultNonNullable` has it.
 * @param {Record<string, unknown>} schema
 * @param {string} indent
 */
function propertyLines(schema, indent) {
  const required = list(schema.required);
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  return properties.flatMap(([key, property]) => {
    const always = required.includes(key) || (isObject(property) && property.default !== undefined);
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    const type = print(typeOf(property, indent));
    return [...described(property, indent), `${indent}${name}${always ? '' : '?'}: ${type};`];
  });
}

/**
 * An inline allOf part with the required properties of the schema around it added to its own,
 * as openapi-typescript reads it.
 * @param {Record<string, unknown>} part
 * @param {unknown} required
 * @returns {Record<string, unknown>}
 */
function withRequired(part, required) {
  return { ...part, required: [...list(required), ...list(part.required)] };
}

/**
 * The TSDoc of a schema's description, if it has one.
 * @param {unknown} schema
 * @param {string} indent
 */
function described(schema, indent) {
  const text = isObject(schema) && typeof schema.description === 'string' ? schema.description : '';
  return text.trim() === '' ? [] : tsdoc([text.trim()], indent);
}

/**
 * The name a component schema goes by: its own where it is an identifier that takes no name
 * from a global or an import, else `<Name>Model`; openapi-typescript's type where it is none.
 * @param {string} name
 */
export function schemaName(name) {
  if (!IDENTIFIER.test(name)) return openapiType(name);
  return TAKEN_NAMES.has(name) ? `${name}Model` : name;
}

/**
 * Whether a schema holds a file (`format: binary`, or a `contentMediaType`): both generators
 * type it as `FILE_TYPE`.
 * @param {Record<string, unknown>} schema
 */
export function isFile(schema) {
  return (
    (schema.type === 'string' || schema.type === undefined) &&
    (schema.format === 'binary' || typeof schema.contentMediaType === 'string')
  );
}

/**
 * openapi-typescript's type of a component schema.
 * @param {string} name
 */
function openapiType(name) {
  return `components["schemas"][${JSON.stringify(name)}]`;
}

/**
 * Whether a schema is one value (openapi-typescript ignores a `const` of null).
 * @param {Record<string, unknown>} schema
 */
function hasConst(schema) {
  return schema.const !== undefined && schema.const !== null;
}

/**
 * A keyword's value as a list: itself where it is an array, else empty.
 * @param {unknown} value
 * @returns {unknown[]}
 */
function list(value) {
  return Array.isArray(value) ? value : [];
}

/**
 * @param {string} text
 * @returns {Type}
 */
function atom(text) {
  return [[text]];
}

/** @param {Type} type */
function print(type) {
  return type.map((parts) => parts.join(' & ')).join(' | ');
}

/**
 * `type` as an operand of `&` or `[]`: in parentheses where it joins several.
 * @param {Type} type
 */
function operand(type) {
  return type.length === 1 && type[0]?.length === 1 ? print(type) : `(${print(type)})`;
}

/** @param {Type} type */
function isPrimitive(type) {
  return PRIMITIVES.includes(operand(type));
}

/**
 * @param {Type[]} types
 * @returns {Type}
 */
function union(types) {
  const members = types.flat();
  return members.length === 0 ? atom('never') : members;
}

/**
 * @param {Type[]} types
 * @returns {Type}
 */
function intersection(types) {
  const [only] = types;
  if (types.length === 1 && only) return only;
  return [types.flatMap((type) => (type.length === 1 ? type.flat() : [operand(type)]))];
}
