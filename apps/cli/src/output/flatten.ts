/** A cell of a table or CSV row. */
export type Cell = string | number | boolean | null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cell(value: unknown): Cell {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item))) {
    return value.map(String).join('; ');
  }
  return JSON.stringify(value) ?? null;
}

/**
 * Turns a nested record into one row: nested objects become dotted columns (`address.city`),
 * lists of plain values are joined with `; `, lists of objects stay JSON text.
 *
 * @example
 * flatten({ id: 'L1', address: { city: 'Lyon' }, tags: ['a', 'b'] });
 * // → { id: 'L1', 'address.city': 'Lyon', tags: 'a; b' }
 */
export function flatten(record: Record<string, unknown>, prefix = ''): Record<string, Cell> {
  const row: Record<string, Cell> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const column = `${prefix}${key}`;
    if (isRecord(value)) Object.assign(row, flatten(value, `${column}.`));
    else row[column] = cell(value);
  }
  return row;
}

/**
 * Every column of the rows, in order of first appearance.
 *
 * @example
 * columnsOf([{ a: 1 }, { a: 2, b: 3 }]); // → ['a', 'b']
 */
export function columnsOf(rows: readonly Record<string, Cell>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const column of Object.keys(row)) columns.add(column);
  return [...columns];
}
