import { isRecord, type Operation, type OperationParameter } from './operations.js';

/** How a paged read of a spec pages, filters and carries its records. */
export interface Paging {
  /** The page size parameter (`x-paging: limit`). */
  readonly limit: string;
  /** The page size when the request gives none: the schema's `default`, else its `maximum`. */
  readonly defaultLimit: number;
  /** The position parameter: a record index (`offset`) or a page index (`page`), from `base`. */
  readonly position: {
    readonly name: string;
    readonly unit: 'offset' | 'page';
    readonly base: number;
  };
  /** The filter that keeps records modified since a date, and the record field it reads. */
  readonly watermark: { readonly parameter: string; readonly field: string } | undefined;
  /** The envelope's array property holding the records; `undefined` when the body is the array. */
  readonly recordsProperty: string | undefined;
  /** The schema of one record, `$ref`s inlined. */
  readonly item: unknown;
  /** The records of the response's examples. */
  readonly itemExamples: readonly unknown[];
  /** The field identifying a record (`x-record-key`). */
  readonly key: string | undefined;
}

type Schema = Record<string, unknown>;

/** The array property of an envelope: `x-records`, else its one array property. */
function recordsPropertyOf(schema: Schema): string | undefined {
  if (typeof schema['x-records'] === 'string') return schema['x-records'];
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const arrays = Object.keys(properties).filter(
    (name) => isRecord(properties[name]) && properties[name].type === 'array',
  );
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** The field names a record has, in order: its schema's properties, then its examples' fields. */
function fieldsOf(item: unknown, examples: readonly unknown[]): string[] {
  const fields = new Set(
    isRecord(item) && isRecord(item.properties) ? Object.keys(item.properties) : [],
  );
  for (const example of examples)
    if (isRecord(example)) for (const f of Object.keys(example)) fields.add(f);
  return [...fields];
}

/**
 * The watermark filter (`x-sync: watermark`); its record field shares the parameter's stem
 * (`modifiedSince` → `modifiedDate`).
 */
function watermarkOf(parameters: readonly OperationParameter[], fields: readonly string[]) {
  const parameter = parameters.find((p) => p.in === 'query' && p.sync === 'watermark');
  if (parameter === undefined) return undefined;
  const stem = parameter.name.replace(/(Since|After|From)$/, '');
  const field = fields.find((f) => f !== parameter.name && f.startsWith(stem));
  return field === undefined ? undefined : { parameter: parameter.name, field };
}

/**
 * How an operation pages, read from the spec: `undefined` unless it has a `limit` and a
 * position parameter (`x-paging`) and its 2xx body is an array of records or an envelope of one.
 *
 * @example
 * pagingOf(listGradings); // { limit: 'limit', position: { name: 'offset', unit: 'offset', base: 0 }, … }
 */
export function pagingOf(operation: Operation): Paging | undefined {
  const { parameters, success } = operation;
  const limit = parameters.find((p) => p.paging === 'limit');
  const position = parameters.find((p) => p.paging === 'offset' || p.paging === 'page');
  const body = success?.schema;
  if (limit === undefined || position === undefined || !isRecord(body)) return undefined;
  const recordsProperty = body.type === 'array' ? undefined : recordsPropertyOf(body);
  const array =
    recordsProperty === undefined
      ? body
      : (body.properties as Record<string, unknown>)[recordsProperty];
  if (!isRecord(array) || array.type !== 'array') return undefined;
  const item = array.items ?? {};
  const itemExamples = success!.examples.flatMap((example) => {
    const records =
      recordsProperty === undefined
        ? example
        : isRecord(example)
          ? example[recordsProperty]
          : undefined;
    return Array.isArray(records) ? records : [];
  });
  const fields = fieldsOf(item, [
    ...(isRecord(item) && Array.isArray(item.examples) ? item.examples : []),
    ...itemExamples,
  ]);
  const minimum = isRecord(position.schema) ? position.schema.minimum : undefined;
  const size = isRecord(limit.schema) ? (limit.schema.default ?? limit.schema.maximum) : undefined;
  return {
    limit: limit.name,
    // A spec that bounds the page size nowhere leaves it to the server: the specs' largest page.
    defaultLimit: typeof size === 'number' ? size : 1024,
    position: {
      name: position.name,
      unit: position.paging as 'offset' | 'page',
      base: typeof minimum === 'number' ? minimum : 0,
    },
    watermark: watermarkOf(parameters, fields),
    recordsProperty,
    item,
    itemExamples,
    key:
      isRecord(item) && typeof item['x-record-key'] === 'string' ? item['x-record-key'] : undefined,
  };
}
