import { openapiDocument } from './generated/document.js';

type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` in the bundled spec; a build defect (not a caller's) when it is missing. */
function specAt(path: readonly string[]): unknown {
  let value: unknown = openapiDocument;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  if (value === undefined) {
    throw new Error(`specs/liability/openapi.yaml has no ${path.join('.')}; run pnpm generate`);
  }
  return value;
}

function resolved(value: unknown): unknown {
  const ref = isObject(value) ? value.$ref : undefined;
  return typeof ref === 'string' ? specAt(ref.replace(/^#\//, '').split('/')) : value;
}

/**
 * The `default` of a string schema in `components.schemas`.
 *
 * @example
 * schemaDefault('ProductId'); // the product id the spec assumes
 */
export function schemaDefault(name: string): string {
  const value = specAt(['components', 'schemas', name, 'default']);
  if (typeof value !== 'string') throw new Error(`components.schemas.${name}.default is no string`);
  return value;
}

/**
 * The `enum` of a string schema in `components.schemas`.
 *
 * @example
 * schemaEnum('TerritoryOfSales'); // every published territory of sales
 */
export function schemaEnum(name: string): readonly string[] {
  const value = specAt(['components', 'schemas', name, 'enum']);
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new Error(`components.schemas.${name}.enum is no list of strings`);
  }
  return Object.freeze([...value]);
}

/** A query parameter of an operation: its name and the `format` of its string schema. */
export interface QueryParameter {
  readonly name: string;
  readonly format: string | undefined;
}

/**
 * The query parameters of an operation, in the spec's order.
 *
 * @example
 * queryParameters('/quotes', 'get').map((p) => p.name); // the quote search filters
 */
export function queryParameters(path: string, method: string): readonly QueryParameter[] {
  const parameters = specAt(['paths', path, method, 'parameters']);
  if (!Array.isArray(parameters)) throw new Error(`paths.${path}.${method}.parameters is no list`);
  return parameters
    .map(resolved)
    .filter((p): p is JsonObject => isObject(p) && p.in === 'query' && typeof p.name === 'string')
    .map((p) => {
      const format = isObject(p.schema) ? p.schema.format : undefined;
      return { name: p.name as string, format: typeof format === 'string' ? format : undefined };
    });
}
