import { resolve, validate } from './documents.js';
import { inferSchema } from './infer.js';
import type { Expectation, Finding, SpecEdit, SpecName } from './types.js';

/** What the check of where a read's records are expects. */
export const PLACE: Expectation = {
  confirm: 'every answer holds its records where the spec says: a bare array, or its x-records',
  contradict: 'they are somewhere else',
};

/** What the check of the fields of records expects. */
export const FIELDS: Expectation = {
  confirm: 'every record meets its schema and carries only fields a schema that names any names',
  contradict: 'a record that breaks it, or a field it does not name',
};

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the records of an answer are: the answer itself, or one property of an envelope. */
export type RecordsPlace = { kind: 'array' } | { kind: 'envelope'; property: string };

function describePlace(place: RecordsPlace): string {
  return place.kind === 'array'
    ? 'a bare JSON array'
    : `an object whose "${place.property}" holds them`;
}

/**
 * Where the records of an answer are, or why that cannot be told.
 *
 * @example
 * observedPlace({ items: [{ id: 1 }], total: 1 }); // { place: { kind: 'envelope', property: 'items' }, records: [{ id: 1 }] }
 */
export function observedPlace(
  body: unknown,
): { place: RecordsPlace; records: unknown[] } | { problem: string } {
  if (Array.isArray(body)) return { place: { kind: 'array' }, records: body };
  if (!isRecord(body))
    return {
      problem: `the answer is ${body === null ? 'null' : typeof body}, neither an array nor an object`,
    };
  const arrays = Object.keys(body).filter((name) => Array.isArray(body[name]));
  const ofRecords = arrays.filter((name) => (body[name] as unknown[]).every(isRecord));
  const candidates = ofRecords.length > 0 ? ofRecords : arrays;
  if (candidates.length === 1) {
    const property = candidates[0]!;
    return { place: { kind: 'envelope', property }, records: body[property] as unknown[] };
  }
  return {
    problem:
      candidates.length === 0
        ? `the answer is an object without an array property (${Object.keys(body).join(', ') || 'empty'})`
        : `the answer is an object with several array properties (${candidates.join(', ')}), so which holds the records cannot be told`,
  };
}

/** `1 record`, `2 records`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function samePlace(a: RecordsPlace, b: RecordsPlace): boolean {
  return (
    a.kind === b.kind && (a.kind === 'array' || a.property === (b as { property: string }).property)
  );
}

/** Where a guessed answer shape lives in the spec as written (not bundled). */
export interface RecordsStatement {
  spec: SpecName;
  /** Pointer of the `x-upstream-gap` that states the guess. */
  marker: string;
  /** Pointer of the schema of the answer. */
  schema: string;
  /** Pointer of the `examples` map of the answer's media type, when it has one. */
  examples?: string | undefined;
  /** The description of the schema, kept when the schema is replaced. */
  description?: string | undefined;
  /** Whether the marker sits in the schema (a named schema) rather than beside it (a response). */
  markerInSchema: boolean;
}

/**
 * The finding on where a read's records are: `bodies` are the JSON answers of the read, `items`
 * the spec's schema of a record (kept as written: a `$ref` stays a `$ref`).
 *
 * @example
 * const { finding, records } = recordsPlaceFinding(statement, examples, specPlace(document, schema), bodies, 'exposure listLocations');
 */
export function recordsPlaceFinding(
  statement: RecordsStatement,
  documentExamples: Json,
  expected: { place: RecordsPlace; items: unknown },
  bodies: readonly unknown[],
  what: string,
): { finding: Finding; records: unknown[] } {
  const observed = bodies.map(observedPlace);
  const problem = observed.find((o): o is { problem: string } => 'problem' in o);
  if (problem !== undefined || observed.length === 0) {
    return {
      finding: {
        spec: statement.spec,
        pointer: statement.marker,
        expects: PLACE,
        status: observed.length === 0 ? 'unobserved' : 'contradicted',
        evidence:
          observed.length === 0
            ? `${what}: no JSON answer to judge`
            : `${what}: ${problem!.problem}`,
      },
      records: [],
    };
  }
  const places = observed as { place: RecordsPlace; records: unknown[] }[];
  const records = places.flatMap((o) => o.records);
  const place = places[0]!.place;
  if (samePlace(place, expected.place)) {
    return {
      finding: {
        spec: statement.spec,
        pointer: statement.marker,
        expects: PLACE,
        status: 'confirmed',
        evidence: `${what}: ${count(bodies.length, 'answer')}, each ${describePlace(place)}, as the spec says`,
      },
      records,
    };
  }
  const envelope = place.kind === 'envelope' ? place.property : undefined;
  const note =
    envelope === undefined
      ? 'The documents do not show the answer; observed: a bare JSON array of records.'
      : `The documents do not show the answer; observed: an object whose "${envelope}" holds the records.`;
  let schema: Json;
  if (envelope === undefined) {
    schema = { type: 'array', items: expected.items };
  } else {
    const others = bodies.filter(isRecord).map((body) => {
      const rest = { ...body };
      delete rest[envelope];
      return rest;
    });
    const inferred = inferSchema(others);
    schema = {
      type: 'object',
      'x-records': envelope,
      required: [envelope],
      properties: {
        [envelope]: { type: 'array', items: expected.items },
        ...(isRecord(inferred.properties) ? inferred.properties : {}),
      },
    };
  }
  if (statement.markerInSchema) {
    schema = {
      ...(statement.description === undefined ? {} : { description: statement.description }),
      'x-upstream-gap': note,
      ...schema,
    };
  }
  const edit: SpecEdit[] = [{ op: 'replace', path: statement.schema, value: schema }];
  if (!statement.markerInSchema) edit.push({ op: 'replace', path: statement.marker, value: note });
  if (statement.examples !== undefined) {
    for (const [name, example] of Object.entries(documentExamples)) {
      if (!isRecord(example) || !('value' in example)) continue;
      const value = example.value;
      const moved =
        envelope === undefined
          ? isRecord(value)
            ? (Object.values(value).find(Array.isArray) ?? [])
            : value
          : { [envelope]: value };
      edit.push({
        op: 'replace',
        path: `${statement.examples}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}/value`,
        value: moved,
      });
    }
  }
  return {
    finding: {
      spec: statement.spec,
      pointer: statement.marker,
      expects: PLACE,
      status: 'contradicted',
      evidence: `${what}: the spec says ${describePlace(expected.place)}; ${count(bodies.length, 'answer')}, each ${describePlace(place)}`,
      edit,
    },
    records,
  };
}

/** The property names a schema names, through `allOf`. */
function namedProperties(document: Json, schema: unknown, depth = 0): Set<string> {
  const resolved = resolve(document, schema);
  const names = new Set<string>();
  if (!isRecord(resolved) || depth > 8) return names;
  if (isRecord(resolved.properties))
    for (const name of Object.keys(resolved.properties)) names.add(name);
  if (Array.isArray(resolved.allOf)) {
    for (const part of resolved.allOf)
      for (const name of namedProperties(document, part, depth + 1)) names.add(name);
  }
  return names;
}

function fieldList(records: readonly Json[], names: readonly string[]): string {
  return names
    .map((name) => {
      const type = inferSchema(records.filter((r) => name in r).map((r) => r[name])).type;
      return `${name} (${Array.isArray(type) ? type.join('|') : String(type ?? 'any')})`;
    })
    .join(', ');
}

/**
 * The finding on the fields records carry: each record is checked against `items`; a record
 * schema that names no field is open, and the fields seen are listed; one that names fields is
 * contradicted by any other field, with the edit that names it. Without records it is skipped
 * when the answers held none (`answered`), and unobserved when there was no answer.
 *
 * @example
 * recordFieldsFinding(document, { spec: 'approvals', marker, schema: '/components/schemas/ApprovalItem' }, items, records, 'approval items', true);
 */
export function recordFieldsFinding(
  document: Json,
  statement: { spec: SpecName; marker: string; schema: string },
  items: unknown,
  records: readonly unknown[],
  what: string,
  answered: boolean,
): Finding {
  const base = { spec: statement.spec, pointer: statement.marker, expects: FIELDS };
  if (records.length === 0) {
    return answered
      ? { ...base, status: 'skipped', evidence: `${what}: the answers held no record to look at` }
      : { ...base, status: 'unobserved', evidence: `${what}: no answer held records` };
  }
  const objects = records.filter(isRecord);
  const problems = [...new Set(records.flatMap((record) => validate(document, items, record)))];
  const names = [...new Set(objects.flatMap((r) => Object.keys(r)))];
  const named = namedProperties(document, items);
  if (problems.length > 0) {
    return {
      ...base,
      status: 'contradicted',
      evidence: `${what}: ${count(records.length, 'record')} against the record schema: ${problems.slice(0, 6).join('; ')}`,
    };
  }
  if (named.size === 0) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `${what}: ${count(records.length, 'record')}, open as the spec says; they carry ${fieldList(objects, names)}`,
    };
  }
  const extra = names.filter((name) => !named.has(name));
  if (extra.length === 0) {
    return {
      ...base,
      status: 'confirmed',
      evidence: `${what}: ${count(records.length, 'record')}, with only fields the spec names`,
    };
  }
  return {
    ...base,
    status: 'contradicted',
    evidence: `${what}: ${count(records.length, 'record')}, with fields the spec does not name: ${fieldList(objects, extra)}`,
    edit: extra.map((name) => ({
      op: 'add' as const,
      path: `${statement.schema}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
      value: inferSchema(objects.filter((r) => name in r).map((r) => r[name])),
    })),
  };
}
