import type { Cell } from './flatten.js';
import { visibleText } from './safe-text.js';

/**
 * Widest a cell of free text or JSON gets; longer text is cut with an ellipsis. Single words
 * (ids, URLs, paths) are cut only to fit the terminal.
 */
const MAX_CELL_WIDTH = 40;

/** Narrowest a free-text column is made to fit the terminal, unless its content is narrower. */
const MIN_TEXT_WIDTH = 10;

/** A value wider than this (a URL, a path) is narrowed, to no less than the floor, before columns are left out. */
const LONG_VALUE = 30;
const LONG_VALUE_FLOOR = 20;

/** Between two columns. */
const GAP = '  ';

/**
 * What a column holds decides how it gives way to a narrow terminal: ids (what people copy) are
 * never cut or left out, free text is narrowed first, JSON is left out first, and short values
 * such as dates, amounts and statuses are shown whole or left out.
 */
type ColumnKind = 'id' | 'text' | 'json' | 'value';

/** The columns of a table and the width of each, fixed once so rows can stream. */
export interface TableLayout {
  readonly columns: readonly string[];
  readonly widths: readonly number[];
  /** Which of `columns` are ids, shown whole even when a later value is wider. */
  readonly ids: readonly boolean[];
  /** Columns left out because even narrowed they do not fit the width. */
  readonly hidden: readonly string[];
}

/** `quoteId`, `locationId`, `id`, `sellerId`: a field named as an identifier. */
const ID_NAME = /(^id$|Id$|_id$|ID$)/;

/** A value shaped like an identifier: `QTE-2026-0000001`, `SEL-000001`. */
const ID_VALUE = /^[A-Z]{2,}-[A-Z0-9-]+$/;

function kindOf(column: string, cells: readonly string[]): ColumnKind {
  const present = cells.filter((cell) => cell !== '');
  const leaf = column.split('.').at(-1) ?? column;
  if (ID_NAME.test(leaf)) return 'id';
  if (present.length > 0 && present.every((cell) => ID_VALUE.test(cell))) return 'id';
  if (present.length > 0 && present.every((cell) => /^[[{]/.test(cell))) return 'json';
  return present.some((cell) => cell.includes(' ')) ? 'text' : 'value';
}

/**
 * The text of one cell on one line: blank for a missing value, whitespace runs as one space,
 * control characters shown as escapes (never sent to the terminal as they are).
 */
export function cellText(value: Cell | undefined): string {
  if (value === undefined || value === null) return '';
  return visibleText(String(value).replace(/\s+/g, ' '));
}

/**
 * `text` cut to `width` characters, the last one an ellipsis when anything was cut.
 */
function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return width <= 1 ? '…'.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width, 0) + GAP.length * (widths.length - 1);
}

/**
 * Column widths from a sample of rows: each column as wide as its widest cell (text at most
 * {@link MAX_CELL_WIDTH}), then, to fit `maxWidth` (the terminal's width) when
 * given: free-text columns narrowed, widest first, then long values; then columns left out,
 * JSON first and the last first; ids are never narrowed nor left out. With `idsFirst` (columns
 * nobody chose), the ids lead, as the column people look for and copy.
 */
export function layoutTable(
  chosen: readonly string[],
  sample: readonly Record<string, Cell>[],
  maxWidth?: number,
  idsFirst = false,
): TableLayout {
  const kindOfColumn = (column: string) =>
    kindOf(
      column,
      sample.map((row) => cellText(row[column])),
    );
  const columns = idsFirst
    ? [
        ...chosen.filter((column) => kindOfColumn(column) === 'id'),
        ...chosen.filter((column) => kindOfColumn(column) !== 'id'),
      ]
    : chosen;
  const cells = columns.map((column) => sample.map((row) => cellText(row[column])));
  const kinds = columns.map((column, index) => kindOf(column, cells[index] ?? []));
  // A loop rather than Math.max(...cells): spreading a large sample overflows the stack.
  const natural = columns.map((column, index) => {
    let width = column.length;
    for (const cell of cells[index] ?? []) if (cell.length > width) width = cell.length;
    return kinds[index] === 'text' || kinds[index] === 'json'
      ? Math.min(width, MAX_CELL_WIDTH)
      : width;
  });
  let shown = columns.map((_, index) => index);
  // Free text gives way first; then long values (URLs, paths), never below LONG_VALUE_FLOOR.
  const narrow = (widths: number[], floors: readonly number[]) => {
    for (let excess = tableWidth(widths) - (maxWidth ?? Infinity); excess > 0; excess -= 1) {
      let widest = -1;
      widths.forEach((width, at) => {
        if (width > (floors[at] ?? 0) && (widest < 0 || width > (widths[widest] ?? 0))) widest = at;
      });
      if (widest < 0) return;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
  };
  const fitted = (): number[] => {
    const widths = shown.map((index) => natural[index] ?? 0);
    const floor = (kind: ColumnKind | undefined, width: number, long: boolean) =>
      kind === 'text'
        ? Math.min(width, MIN_TEXT_WIDTH)
        : long && kind === 'value' && width > LONG_VALUE
          ? LONG_VALUE_FLOOR
          : width;
    for (const long of [false, true]) {
      narrow(
        widths,
        shown.map((index, at) => floor(kinds[index], widths[at] ?? 0, long)),
      );
    }
    return widths;
  };
  let widths = fitted();
  const hidden: string[] = [];
  const leaveOut = (kind: ColumnKind | undefined) =>
    shown.findLastIndex(
      (index) => kinds[index] !== 'id' && (kind === undefined || kinds[index] === kind),
    );
  while (maxWidth !== undefined && tableWidth(widths) > maxWidth) {
    const json = leaveOut('json');
    const at = json >= 0 ? json : leaveOut(undefined);
    if (at < 0) break;
    hidden.push(columns[shown[at] ?? 0] ?? '');
    shown = shown.filter((_, position) => position !== at);
    widths = fitted();
  }
  return {
    columns: shown.map((index) => columns[index] ?? ''),
    widths,
    ids: shown.map((index) => kinds[index] === 'id'),
    hidden: columns.filter((column) => hidden.includes(column)),
  };
}

function line(
  values: readonly string[],
  widths: readonly number[],
  ids: readonly boolean[] = [],
): string {
  return values
    .map((value, index) => {
      const width = widths[index] ?? 0;
      return (ids[index] === true ? value : truncate(value, width)).padEnd(width);
    })
    .join(GAP)
    .trimEnd();
}

/**
 * The header line and the line of dashes under it.
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
 */
export function renderRow(layout: TableLayout, row: Readonly<Record<string, Cell>>): string {
  return `${line(
    layout.columns.map((column) => cellText(row[column])),
    layout.widths,
    layout.ids,
  )}\n`;
}

/**
 * Renders a few rows as a plain text table with a header line, columns padded to their widest
 * cell. Large outputs stream through {@link layoutTable} and {@link renderRow} instead.
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
 * `text` broken into lines of at most `width` characters, at spaces where it has them.
 */
function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  lines.push(rest);
  return lines;
}

/** Narrowest the values of a `key  value` record are shown beside their keys. */
const MIN_VALUE_WIDTH = 30;

/**
 * Renders one record as `key  value` lines, for commands that return a single object; a value
 * wider than `maxWidth` (the terminal's width) continues on the next lines, never cut. When the
 * keys leave less than {@link MIN_VALUE_WIDTH} columns beside them, each value goes under its
 * key instead, indented.
 */
export function renderKeyValues(row: Readonly<Record<string, Cell>>, maxWidth?: number): string {
  const keys = Object.keys(row);
  let width = 0;
  for (const key of keys) width = Math.max(width, visibleText(key).length);
  const beside = maxWidth === undefined || maxWidth - width - GAP.length >= MIN_VALUE_WIDTH;
  const indent = beside ? ' '.repeat(width + GAP.length) : GAP;
  const valueWidth = maxWidth === undefined ? Infinity : Math.max(maxWidth - indent.length, 10);
  return keys
    .map((key) => {
      const value = wrapText(cellText(row[key]), valueWidth).join(`\n${indent}`);
      const line = beside
        ? `${visibleText(key).padEnd(width)}${GAP}${value}`
        : `${visibleText(key)}\n${indent}${value}`;
      return line.trimEnd();
    })
    .join('\n')
    .concat('\n');
}
