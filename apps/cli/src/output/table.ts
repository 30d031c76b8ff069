import type { Cell } from './flatten.js';

/** Widest a table cell gets; longer text is cut with an ellipsis. */
const MAX_CELL_WIDTH = 40;

function text(value: Cell | undefined): string {
  if (value === undefined || value === null) return '';
  const plain = String(value).replace(/\s+/g, ' ');
  return plain.length > MAX_CELL_WIDTH ? `${plain.slice(0, MAX_CELL_WIDTH - 1)}…` : plain;
}

/**
 * Renders rows as a plain text table with a header line, columns padded to their widest cell.
 *
 * @example
 * renderTable(['id', 'city'], [{ id: 'L1', city: 'Lyon' }]);
 * // → 'id  city\n--  ----\nL1  Lyon\n'
 */
export function renderTable(
  columns: readonly string[],
  rows: readonly Record<string, Cell>[],
): string {
  const cells = rows.map((row) => columns.map((column) => text(row[column])));
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return (
    [line(columns), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n') +
    '\n'
  );
}

/**
 * Renders one record as `key  value` lines, for commands that return a single object.
 *
 * @example
 * renderKeyValues({ quoteId: 'QTE-2026-0000001', status: 'quoted' });
 * // → 'quoteId  QTE-2026-0000001\nstatus   quoted\n'
 */
export function renderKeyValues(row: Readonly<Record<string, Cell>>): string {
  const keys = Object.keys(row);
  const width = Math.max(0, ...keys.map((key) => key.length));
  return keys.map((key) => `${key.padEnd(width)}  ${row[key] ?? ''}`.trimEnd()).join('\n') + '\n';
}
