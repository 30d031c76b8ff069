import { isObject, type PagingModel } from '@partner-apis/spec-model';
import { formatDay, type RecordWriter } from './collection.js';
import { generate, withExamples } from './generate.js';
import { hash } from './random.js';

// Records are drawn from this many generated ones, field by field, so a page costs string
// joins rather than schema walks, and a collection of any size costs the same memory.
const POOL_SIZE = 64;
// Keywords that tie the fields of a record together: such records are only taken whole.
const BINDING = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'dependentRequired', 'dependentSchemas'];

/** The identifier of record `index`, shaped like the key of the examples. */
export type KeyFormat = (index: number) => string | number;

/**
 * The key of record `index` in the shape of an example: its last run of digits counts from 1
 * (`LOC-0001842` gives `LOC-0000001`, `LOC-0000002`, …); a string without digits gives the
 * count as text; anything else, the count.
 */
export function keyFormat(example: unknown): KeyFormat {
  const match = typeof example === 'string' ? /^(.*?)(\d+)(\D*)$/.exec(example) : null;
  if (typeof example === 'string' && match) {
    const [, prefix, digits, suffix] = match;
    return (index) => `${prefix}${String(index + 1).padStart(digits!.length, '0')}${suffix}`;
  }
  return typeof example === 'string' ? (index) => String(index + 1) : (index) => index + 1;
}

/** Another collection of the same service whose key a record may point at. */
export interface Reference {
  readonly size: number;
  readonly key: KeyFormat;
}

/** The examples of the record schema itself first: they give the shape of its key. */
function examplesOf(paging: PagingModel): unknown[] {
  const own =
    isObject(paging.item) && Array.isArray(paging.item.examples) ? paging.item.examples : [];
  return [...own, ...paging.itemExamples];
}

/**
 * The key format of a paged read's records, from the first example that has a key.
 */
export function recordKey(paging: PagingModel): KeyFormat | undefined {
  const { recordKey: key } = paging;
  if (key === undefined) return undefined;
  const example = examplesOf(paging).find((e) => isObject(e) && e[key] !== undefined);
  if (isObject(example)) return keyFormat(example[key]);
  const { item } = paging;
  const schema = isObject(item) && isObject(item.properties) ? item.properties[key] : undefined;
  // Without an example, a string key is the bare count.
  return keyFormat(isObject(schema) && schema.type === 'string' ? '' : undefined);
}

/**
 * Writes the records of a paged read as JSON text, each from its index alone: the fields come
 * from records generated from the schema and its examples; the key counts with the index; the
 * watermark field is the collection's modification day; a field named as another collection's
 * key points at one of its records.
 */
export function recordWriter(
  paging: PagingModel,
  seed: number,
  stream: number,
  references: ReadonlyMap<string, Reference>,
): RecordWriter {
  const schema = withExamples(paging.item, examplesOf(paging));
  const key = recordKey(paging);
  const watermark = paging.watermark?.field;
  const fieldSchema = (name: string | undefined) =>
    isObject(schema) && isObject(schema.properties) && name !== undefined
      ? schema.properties[name]
      : undefined;
  const watermarkSchema = fieldSchema(watermark);
  const dateTime =
    isObject(watermarkSchema) &&
    (watermarkSchema.format === 'date-time' ||
      (Array.isArray(watermarkSchema.examples) &&
        String(watermarkSchema.examples[0]).includes('T')));
  const mixable = isObject(schema) && BINDING.every((keyword) => schema[keyword] === undefined);
  let pool:
    | { fields: string[]; labels: string[]; records: Map<string, string>[]; texts: string[] }
    | undefined;

  const poolOf = () => {
    if (pool) return pool;
    const values = Array.from({ length: POOL_SIZE }, (_, i) =>
      generate(schema, hash(seed, stream, -1, i)),
    );
    const fields = new Set<string>(paging.recordKey === undefined ? [] : [paging.recordKey]);
    for (const value of values)
      if (isObject(value)) for (const f of Object.keys(value)) fields.add(f);
    if (watermark !== undefined) fields.add(watermark);
    pool = {
      fields: [...fields],
      labels: [...fields].map((field) => `${JSON.stringify(field)}:`),
      records: values.map(
        (value) =>
          new Map(
            Object.entries(isObject(value) ? value : {}).map(([f, v]) => [f, JSON.stringify(v)]),
          ),
      ),
      texts: values.map((value) => JSON.stringify(value)),
    };
    return pool;
  };

  return (index, modifiedDay) => {
    const { fields, labels, records, texts } = poolOf();
    const whole = hash(seed, stream, index) % POOL_SIZE;
    if (!isObject(schema) || schema.type !== 'object') return texts[whole]!;
    let body = '';
    fields.forEach((field, f) => {
      let text: string | undefined;
      const reference = references.get(field);
      if (field === paging.recordKey && key !== undefined) text = JSON.stringify(key(index));
      else if (field === watermark) {
        const day = formatDay(modifiedDay);
        text = `"${dateTime ? `${day}T00:00:00Z` : day}"`;
      } else if (reference !== undefined && reference.size > 0) {
        text = JSON.stringify(reference.key(hash(seed, stream, index, f) % reference.size));
      } else {
        text = records[mixable ? hash(seed, stream, index, f) % POOL_SIZE : whole]!.get(field);
      }
      if (text !== undefined) body += `${body === '' ? '' : ','}${labels[f]}${text}`;
    });
    return `{${body}}`;
  };
}
