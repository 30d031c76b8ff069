type Schema = Record<string, unknown>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function stringSchema(values: readonly string[]): Schema {
  if (values.length > 0 && values.every((v) => DATE.test(v)))
    return { type: 'string', format: 'date' };
  if (values.length > 0 && values.every((v) => DATE_TIME.test(v))) {
    return { type: 'string', format: 'date-time' };
  }
  return { type: 'string' };
}

/**
 * A JSON Schema that every one of `samples` meets, as narrow as the samples show: the types,
 * the properties of objects (`required` for those present in every sample when `required` is
 * set), the items of arrays, and the `date` and `date-time` formats. No value is copied into
 * it, so no data of the answers reaches a spec.
 *
 * @example
 * inferSchema([{ code: 'x', status: 400 }], { required: true });
 * // { type: 'object', required: ['code', 'status'], properties: { code: { type: 'string' }, status: { type: 'integer' } } }
 */
export function inferSchema(
  samples: readonly unknown[],
  options: { required?: boolean } = {},
): Schema {
  const kinds = [...new Set(samples.map(kindOf))];
  // An integer seen beside a fraction is a number.
  if (kinds.includes('integer') && kinds.includes('number'))
    kinds.splice(kinds.indexOf('integer'), 1);
  if (kinds.length !== 1) return kinds.length === 0 ? {} : { type: kinds.sort() };
  const [kind] = kinds as [string];
  switch (kind) {
    case 'string':
      return stringSchema(samples as string[]);
    case 'array': {
      const items = (samples as unknown[][]).flat();
      return items.length === 0
        ? { type: 'array' }
        : { type: 'array', items: inferSchema(items, options) };
    }
    case 'object': {
      const objects = samples as Record<string, unknown>[];
      const names = [...new Set(objects.flatMap((o) => Object.keys(o)))];
      const properties = Object.fromEntries(
        names.map((name) => [
          name,
          inferSchema(
            objects.filter((o) => name in o).map((o) => o[name]),
            options,
          ),
        ]),
      );
      const required = names.filter((name) => objects.every((o) => name in o));
      return options.required === true && required.length > 0
        ? { type: 'object', required, properties }
        : { type: 'object', properties };
    }
    default:
      return { type: kind };
  }
}
