import type { Cell } from './flatten.js';
import { visibleText } from './safe-text.js';

/** Widest a table cell gets; longer text is cut with an ellipsis. */
export const MAX_CELL_WIDTH = 40;

/**
 * Narrowest a column is made to fit the terminal, unless its content is narrower: at least this,
 * so ids and dates stay whole, and its header up to {@link MAX_KEPT_HEADER}. Fewer readable
 * columns beat many cut ones.
 */
const MIN_FITTED_WIDTH = 12;
const MAX_KEPT_HEADER = 16;

/** Between two columns. */
const GAP = '  ';

/** The columns of a table and the width of each, fixed once so rows can stream. */
export interface TableLayout {
  readonly columns: readonly string[];
  readonly widths: readonly number[];
  /** Trailing columns left out because even narrowed they do not fit the width. */
  readonly hidden: readonly string[];
}

/**
 * The text of one cell on one line: blank for a missing value, whitespace runs as one space,
 * control characters shown as escapes (never sent to the terminal as they are).
 *
 * @example
 * cellText('two\nlines\x1b[2J'); // → 'two lines\\x1b[2J'
 */
export function cellText(value: Cell | undefined): string {
  if (value === undefined || value === null) return '';
  return visibleText(String(value).replace(/\s+/g, ' '));
}

/**
 * `text` cut to `width` characters, the last one an ellipsis when anything was cut.
 *
 * @example
 * truncate('Rotterdam', 5); // → 'Rott…'
 */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return width <= 1 ? '…'.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

/**
 * Column widths from a sample of rows: each column as wide as its widest cell (at most
 * {@link MAX_CELL_WIDTH}), then the widest columns narrowed until the table fits `maxWidth`
 * (the terminal's width), when given; columns that still do not fit are left out from the end.
 *
 * @example
 * layoutTable(['id', 'city'], [{ id: 'L1', city: 'Lyon' }]).widths; // → [2, 4]
 */
export function layoutTable(
  columns: readonly string[],
  sample: readonly Record<string, Cell>[],
  maxWidth?: number,
): TableLayout {
  const widths = columns.map((column) => Math.min(column.length, MAX_CELL_WIDTH));
  // A loop rather than Math.max(...cells): spreading a large sample overflows the stack.
  for (const row of sample) {
    columns.forEach((column, index) => {
      const width = Math.min(cellText(row[column]).length, MAX_CELL_WIDTH);
      if (width > (widths[index] ?? 0)) widths[index] = width;
    });
  }
  const shown = [...columns];
  const hidden: string[] = [];
  if (maxWidth !== undefined) {
    const total = () =>
      widths.reduce((sum, width) => sum + width, 0) + GAP.length * (widths.length - 1);
    // Every column at its narrowest still too wide: the last ones go, the first one stays.
    const floors = widths.map((width, index) =>
      Math.min(
        width,
        Math.max(MIN_FITTED_WIDTH, Math.min((columns[index] ?? '').length, MAX_KEPT_HEADER)),
      ),
    );
    const narrowest = () =>
      floors.slice(0, widths.length).reduce((sum, width) => sum + width, 0) +
      GAP.length * (widths.length - 1);
    while (widths.length > 1 && narrowest() > maxWidth) {
      widths.pop();
      hidden.unshift(shown.pop()!);
    }
    while (total() > maxWidth) {
      let widest = -1;
      widths.forEach((width, index) => {
        if (width > (floors[index] ?? 0) && (widest < 0 || width > (widths[widest] ?? 0)))
          widest = index;
      });
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
  }
  return { columns: shown, widths, hidden };
}

function line(values: readonly string[], widths: readonly number[]): string {
  return values
    .map((value, index) => truncate(value, widths[index] ?? 0).padEnd(widths[index] ?? 0))
    .join(GAP)
    .trimEnd();
}

/**
 * The header line and the line of dashes under it.
 *
 * @example
 * renderHeader(layoutTable(['id'], [{ id: 'L1' }])); // → 'id\n--\n'
 */
export function renderHeader(layout: TableLayout): string {
  const { columns, widths } = layout;
  return `${line(
    columns.map((column) => visibleText(column)),
    widths,
  )}\n${line(
    widths.map((width) => '-'.repeat(width)),
    widths,
  )}\n`;
}

/**
 * One row as a line of the table, each cell cut to its column.
 *
 * @example
 * renderRow(layout, { id: 'L1', city: 'Lyon' }); // → 'L1  Lyon\n'
 */
export function renderRow(layout: TableLayout, row: Readonly<Record<string, Cell>>): string {
  return `${line(
    layout.columns.map((column) => cellText(row[column])),
    layout.widths,
  )}\n`;
}

/**
 * Renders a few rows as a plain text table with a header line, columns padded to their widest
 * cell. Large outputs stream through {@link layoutTable} and {@link renderRow} instead.
 *
 * @example
 * renderTable(['id', 'city'], [{ id: 'L1', city: 'Lyon' }]);
 * // → 'id  city\n--  ----\nL1  Lyon\n'
 */
export function renderTable(
  columns: readonly string[],
  rows: readonly Record<string, Cell>[],
  maxWidth?: number,
): string {
  const layout = layoutTable(columns, rows, maxWidth);
  return renderHeader(layout) + rows.map((row) => renderRow(layout, row)).join('');
}

/**
 * Renders one record as `key  value` lines, for commands that return a single object; values
 * are cut to `maxWidth` (the terminal's width) when given.
 *
 * @example
 * renderKeyValues({ quoteId: 'QTE-2026-0000001', status: 'quoted' });
 * // → 'quoteId  QTE-2026-0000001\nstatus   quoted\n'
 */
export function renderKeyValues(row: Readonly<Record<string, Cell>>, maxWidth?: number): string {
  const keys = Object.keys(row);
  let width = 0;
  for (const key of keys) width = Math.max(width, visibleText(key).length);
  const valueWidth = maxWidth === undefined ? Infinity : Math.max(maxWidth - width - GAP.length, 1);
  return keys
    .map((key) =>
      `${visibleText(key).padEnd(width)}${GAP}${truncate(cellText(row[key]), valueWidth)}`.trimEnd(),
    )
    .join('\n')
    .concat('\n');
}
