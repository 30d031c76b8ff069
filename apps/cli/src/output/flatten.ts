/** A cell of a table or CSV row. */
export type Cell = string | number | boolean | null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cell(value: unknown, column: string, summarized?: Set<string>): Cell {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item))) {
    return value.map(String).join('; ');
  }
  if (summarized !== undefined && Array.isArray(value)) {
    summarized.add(column);
    return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  }
  return JSON.stringify(value) ?? null;
}

/**
 * Turns a nested record into one row: nested objects become dotted columns (`address.city`),
 * lists of plain values are joined with `; `, lists of objects stay JSON text, or, given
 * `summarized` (a table, for people), become their count (`2 items`) and their column is added
 * to it.
 */
export function flatten(
  record: Record<string, unknown>,
  summarized?: Set<string>,
  prefix = '',
): Record<string, Cell> {
  const row: Record<string, Cell> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const column = `${prefix}${key}`;
    if (isRecord(value)) Object.assign(row, flatten(value, summarized, `${column}.`));
    else row[column] = cell(value, column, summarized);
  }
  return row;
}

/**
 * Every column of the rows, in order of first appearance.
 */
export function columnsOf(rows: readonly Record<string, Cell>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const column of Object.keys(row)) columns.add(column);
  return [...columns];
}
