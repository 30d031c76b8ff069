import { generateSync, type JsonSchema } from 'json-schema-faker';
import { isObject } from '@partner-apis/spec-model';

type Schema = Record<string, unknown>;

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
// Digits after the point of a generated number, so it reads like the spec's examples.
const DECIMALS = 'x-sandbox-decimals';

function typeOf(schema: Schema, examples: readonly unknown[]): string | undefined {
  const declared = Array.isArray(schema.type)
    ? (schema.type as unknown[]).find((t) => t !== 'null')
    : schema.type;
  if (typeof declared === 'string') return declared;
  if (isObject(schema.properties)) return 'object';
  const example = examples.find((e) => e !== null && e !== undefined);
  if (example === undefined) return undefined;
  if (Array.isArray(example)) return 'array';
  if (typeof example === 'number') return Number.isInteger(example) ? 'integer' : 'number';
  return typeof example;
}

function fitsString(schema: Schema, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern !== 'string') return true;
  try {
    return new RegExp(schema.pattern, 'u').test(value);
  } catch {
    // A pattern JavaScript cannot read says nothing against the example.
    return true;
  }
}

/**
 * The range of the examples (around the one example there is), within the schema's own bounds,
 * with their decimals.
 */
function numberRange(schema: Schema, values: readonly number[]): Schema {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const half = low === high ? Math.max(Math.abs(low) / 2, 1) : 0;
  let minimum = low >= 0 ? Math.max(0, low - half) : low - half;
  let maximum = high + half;
  if (typeof schema.minimum === 'number') minimum = Math.max(minimum, schema.minimum);
  if (typeof schema.maximum === 'number') maximum = Math.min(maximum, schema.maximum);
  if (schema.type === 'integer') {
    minimum = Math.ceil(minimum);
    maximum = Math.floor(maximum);
  }
  // Examples outside the schema's bounds say nothing about the range.
  if (minimum > maximum) return schema;
  const decimals = Math.max(...values.map((v) => (String(v).split('.')[1] ?? '').length));
  return { ...schema, minimum, maximum, [DECIMALS]: decimals };
}

/**
 * The schema a generator gets: every leaf carries the values the examples give it (strings are
 * picked among them, numbers drawn from a range around them), and an open object without
 * declared fields gets the fields of its examples. The examples are the spec's own (`examples`
 * and `example` on the schemas) plus those given.
 */
export function withExamples(schema: unknown, examples: readonly unknown[], depth = 0): unknown {
  if (!isObject(schema) || depth > 32) return schema;
  const { examples: own, example, ...rest } = schema;
  const all = [
    ...(Array.isArray(own) ? own : []),
    ...(example === undefined ? [] : [example]),
    ...examples,
  ];
  if ('enum' in rest || 'const' in rest) return rest;
  const result: Schema = { ...rest };
  for (const combinator of COMBINATORS) {
    const branches = rest[combinator];
    if (Array.isArray(branches)) {
      result[combinator] = branches.map((branch) => withExamples(branch, all, depth + 1));
    }
  }
  const type = typeOf(rest, all);
  if (type === 'object') {
    const declared = isObject(rest.properties) ? rest.properties : undefined;
    const open =
      declared === undefined &&
      rest.additionalProperties !== false &&
      COMBINATORS.every((c) => rest[c] === undefined);
    const names = new Set(declared ? Object.keys(declared) : []);
    if (open)
      for (const e of all) if (isObject(e)) for (const name of Object.keys(e)) names.add(name);
    if (names.size > 0) {
      result.properties = Object.fromEntries(
        [...names].map((name) => [
          name,
          withExamples(
            declared?.[name] ?? {},
            all.flatMap((e) => (isObject(e) && e[name] !== undefined ? [e[name]] : [])),
            depth + 1,
          ),
        ]),
      );
      if (typeof rest.type !== 'string') result.type = 'object';
    }
  } else if (type === 'array') {
    result.items = withExamples(
      rest.items ?? {},
      all.flatMap((e) => (Array.isArray(e) ? e : [])),
      depth + 1,
    );
    result.type ??= 'array';
  } else if (type === 'string') {
    const values = [...new Set(all.filter((e) => fitsString(rest, e)))];
    if (values.length > 0) result.examples = values;
    result.type ??= 'string';
  } else if (type === 'integer' || type === 'number') {
    const values = all.filter((e): e is number => typeof e === 'number' && Number.isFinite(e));
    if (values.length > 0) return numberRange({ ...result, type }, values);
    result.type ??= type;
  } else if (type === 'boolean') {
    result.type ??= 'boolean';
  }
  return result;
}

function roundDecimals(value: unknown, schema: JsonSchema): unknown {
  if (typeof value !== 'number' || typeof schema !== 'object') return value;
  const decimals = schema[DECIMALS];
  if (typeof decimals !== 'number') return value;
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  // Rounding may step over a bound; the bound itself is a valid value.
  if (typeof schema.maximum === 'number' && rounded > schema.maximum) return schema.maximum;
  if (typeof schema.minimum === 'number' && rounded < schema.minimum) return schema.minimum;
  return rounded;
}

/** How many items generated arrays have. */
export interface ArrayLengths {
  minItems?: number;
  maxItems?: number;
}

/**
 * One value of a schema prepared by `withExamples`, the same for the same seed: optional fields
 * included, strings from the examples, numbers rounded as the examples are.
 */
export function generate(schema: unknown, seed: number, arrays: ArrayLengths = {}): unknown {
  return generateSync((schema ?? {}) as JsonSchema, {
    seed,
    useExamplesValue: true,
    // Every optional field, and arrays of varying length (`alwaysFakeOptionals` fills them).
    optionalsProbability: 1,
    // Approvals nest five levels deep; the generator's default of 5 would leave them empty.
    maxDepth: 16,
    outputTransform: roundDecimals,
    ...arrays,
  });
}
