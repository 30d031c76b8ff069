import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import { parseJsonPointer } from '@partner-apis/errors';
import { DataError, UsageError } from '../usage-error.js';
import {
  LOCATION_COLUMNS,
  cellValue,
  columnLetter,
  locationColumn,
  portfolioColumn,
  type LocationColumn,
  type PortfolioField,
} from './sov-columns.js';

/** A problem of a Statement of Values, located where the author can find it. */
export interface SovProblem {
  /** `row 4, column D (city)` in a CSV, a JSON Pointer in a JSON file. */
  readonly where: string;
  readonly message: string;
}

/** Portfolio fields given on the command line; they win over the file. */
export type PortfolioOverrides = Partial<Record<PortfolioField, string>>;

/** A Statement of Values read from a file, not yet checked against the schema. */
export interface SovDocument {
  readonly file: string;
  readonly format: 'csv' | 'json';
  /** The portfolio to check and send. */
  readonly portfolio: Record<string, unknown>;
  /** How many locations the file holds. */
  readonly locationCount: number;
  /** Problems found while reading (unknown columns, short rows, disagreeing portfolio fields). */
  readonly problems: readonly SovProblem[];
  /** Where a JSON Pointer into `portfolio` is in the file. */
  locate(pointer: string): string;
}

interface CsvRow {
  record: string[];
  info: { lines: number };
}

type ColumnRole =
  | { kind: 'location'; column: LocationColumn }
  | { kind: 'portfolio'; field: PortfolioField }
  | { kind: 'ignored' };

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node = (node[key] ??= {}) as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

function cellName(index: number, header: string): string {
  return `column ${columnLetter(index)} (${header})`;
}

function startLine(row: CsvRow): number {
  const breaks = row.record.reduce((sum, field) => sum + (field.match(/\n/g)?.length ?? 0), 0);
  return row.info.lines - breaks;
}

/** The delimiters a spreadsheet export uses: `;` where the decimal separator is a comma. */
const DELIMITERS = [',', ';', '\t'] as const;

type Delimiter = (typeof DELIMITERS)[number];

/**
 * The delimiter of a CSV file: whichever of `,`, `;` and tab its header line has most of, outside
 * quotes (Excel in most of Europe exports `;`).
 */
function detectDelimiter(text: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      if (counts.size > 0) break;
    } else if (!quoted) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  for (const delimiter of DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}

/** The line of the quote that opens a field and is never closed, if there is one. */
function unclosedQuoteLine(text: string): number | undefined {
  let line = 1;
  let openedAt: number | undefined;
  for (const char of text) {
    if (char === '\n') line += 1;
    else if (char === '"') openedAt = openedAt === undefined ? line : undefined;
  }
  return openedAt;
}

function parseCsv(text: string, file: string, delimiter: Delimiter): CsvRow[] {
  try {
    return parse(text, {
      bom: true,
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as CsvRow[];
  } catch (error) {
    // A broken file is bad data (exit code 1), not a mistake on the command line.
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') {
      const line = unclosedQuoteLine(text);
      throw new DataError(
        `${file}: ${line === undefined ? '' : `row ${line}: `}a quoted field opens here and is never closed (a " is missing); nothing was sent`,
      );
    }
    if (error instanceof CsvError) {
      throw new DataError(`${file} is not valid CSV: ${error.message}; nothing was sent`);
    }
    throw error;
  }
}

function readCsv(text: string, file: string, overrides: PortfolioOverrides): SovDocument {
  const delimiter = detectDelimiter(text);
  const [headerRow, ...dataRows] = parseCsv(text, file, delimiter);
  // With `;` between fields, a comma is the decimal separator (`1234,5`).
  const decimalComma = delimiter === ';';
  // What the file holds is data (exit code 1), whatever its kind; only an unreadable file is a usage error.
  if (headerRow === undefined) throw new DataError(`${file} is empty: expected a header row`);
  const headers = headerRow.record;
  const problems: SovProblem[] = [];
  const seen = new Map<string, number>();
  const roles: ColumnRole[] = headers.map((header, index) => {
    const column = locationColumn(header);
    const field = column === undefined ? portfolioColumn(header) : undefined;
    const id = column?.header ?? field;
    if (id === undefined) {
      problems.push({
        where: `row ${startLine(headerRow)}, ${cellName(index, header)}`,
        message: `unknown column; the columns are ${LOCATION_COLUMNS.map((c) => c.header).join(', ')} and portfolio columns portfolioName, policyReference, valuationDate, currency`,
      });
      return { kind: 'ignored' };
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push({
        where: `row ${startLine(headerRow)}, ${cellName(index, header)}`,
        message: `repeats column ${columnLetter(first)} (${headers[first]})`,
      });
      return { kind: 'ignored' };
    }
    seen.set(id, index);
    return column !== undefined
      ? { kind: 'location', column }
      : { kind: 'portfolio', field: field! };
  });

  const portfolio: Record<string, unknown> = {};
  const portfolioSource = new Map<PortfolioField, { row: number; index: number }>();
  const locations: Record<string, unknown>[] = [];
  const rowOfLocation: number[] = [];
  for (const row of dataRows) {
    const line = startLine(row);
    if (row.record.length !== headers.length) {
      problems.push({
        where: `row ${line}`,
        message: `has ${row.record.length} fields; the header has ${headers.length}`,
      });
    }
    const location: Record<string, unknown> = {};
    row.record.forEach((text, index) => {
      const role = roles[index];
      if (text === '' || role === undefined || role.kind === 'ignored') return;
      if (role.kind === 'location') {
        setPath(location, role.column.path, cellValue(text, role.column.kind, decimalComma));
        return;
      }
      if (overrides[role.field] !== undefined) return;
      const earlier = portfolioSource.get(role.field);
      if (earlier === undefined) {
        portfolioSource.set(role.field, { row: line, index });
        portfolio[role.field] = text;
      } else if (portfolio[role.field] !== text) {
        problems.push({
          where: `row ${line}, ${cellName(index, headers[index] ?? role.field)}`,
          message: `${role.field} must be the same in every row ("${String(portfolio[role.field])}" in row ${earlier.row})`,
        });
      }
    });
    locations.push(location);
    rowOfLocation.push(line);
  }
  Object.assign(portfolio, definedOnly(overrides), { locations });

  const locate = (pointer: string): string => {
    const tokens = parseJsonPointer(pointer);
    if (tokens === undefined || tokens.length === 0) return pointer || 'the file';
    const [head, index, ...rest] = tokens;
    if (head === 'locations') {
      if (index === undefined) return 'the data rows';
      const line = rowOfLocation[Number(index)];
      if (line === undefined) return pointer;
      return rest.length === 0 ? `row ${line}` : `row ${line}, ${columnsAt(rest)}`;
    }
    const field = portfolioColumn(head as string);
    if (field === undefined) return pointer;
    if (overrides[field] !== undefined) return `--${kebab(field)}`;
    const source = portfolioSource.get(field);
    if (source !== undefined)
      return `row ${source.row}, ${cellName(source.index, headers[source.index] ?? field)}`;
    return `${field} (add a ${field} column or --${kebab(field)})`;
  };

  const columnsAt = (path: readonly string[]): string => {
    const matches = (column: LocationColumn) =>
      path.every((key, depth) => column.path[depth] === key);
    const present = roles.flatMap((role, index) =>
      role.kind === 'location' && matches(role.column)
        ? [cellName(index, headers[index] ?? '')]
        : [],
    );
    if (present.length > 0) return present.join(', ');
    const absent = LOCATION_COLUMNS.filter(matches).map((column) => column.header);
    return absent.length > 0
      ? `column ${absent.join(' / ')} (not in the file)`
      : `field ${path.join('.')}`;
  };

  return { file, format: 'csv', portfolio, locationCount: locations.length, problems, locate };
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function definedOnly(overrides: PortfolioOverrides): PortfolioOverrides {
  return Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
}

function readJson(text: string, file: string, overrides: PortfolioOverrides): SovDocument {
  let content: unknown;
  try {
    content = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new DataError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof content !== 'object' || content === null) {
    throw new DataError(`${file} must hold a Statement of Values object or an array of locations`);
  }
  // A bare array is a list of locations; the portfolio fields then come from the options.
  const portfolio: Record<string, unknown> = Array.isArray(content)
    ? { locations: content }
    : { ...(content as Record<string, unknown>) };
  Object.assign(portfolio, definedOnly(overrides));
  const locations = Array.isArray(portfolio.locations) ? (portfolio.locations as unknown[]) : [];
  const locate = (pointer: string): string => {
    const tokens = parseJsonPointer(pointer);
    const location = tokens?.[0] === 'locations' ? locations[Number(tokens[1])] : undefined;
    const id =
      typeof location === 'object' && location !== null
        ? (location as Record<string, unknown>).locationId
        : undefined;
    const where = pointer === '' ? '(the document)' : pointer;
    return typeof id === 'string' ? `${where} (location ${id})` : where;
  };
  return { file, format: 'json', portfolio, locationCount: locations.length, problems: [], locate };
}

/**
 * Reads a Statement of Values from a CSV file (one location per row; see the README for the
 * columns) or a JSON file (a `StatementOfValues` object, or an array of its locations). Nothing
 * is checked against the schema yet; `locate` turns the pointers of that check into rows and
 * columns.
 */
export async function readStatementOfValues(
  file: string,
  overrides: PortfolioOverrides,
): Promise<SovDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      `cannot read ${file}: ${missing ? 'it does not exist' : (error as Error).message}`,
    );
  }
  const extension = extname(file).toLowerCase();
  const json = extension === '.json' || (extension !== '.csv' && /^\s*[[{]/.test(text));
  return json ? readJson(text, file, overrides) : readCsv(text, file, overrides);
}
