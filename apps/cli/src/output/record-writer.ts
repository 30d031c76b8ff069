import { search } from '@jmespath-community/jmespath';
import { stringify } from 'csv-stringify/sync';
import { DataError, UsageError } from '../usage-error.js';
import { columnsOf, flatten, type Cell } from './flatten.js';
import type { OutputSink } from './output-sink.js';
import { csvCell, jsonText } from './safe-text.js';
import { cellText, layoutTable, renderHeader, renderKeyValues, renderRow } from './table.js';

import type { OutputFormat } from './output-sink.js';

/**
 * How csv-stringify writes a cell: booleans as true/false (not 1 and an empty cell), text with
 * control characters escaped and formulas defused (see `csvCell`).
 */
const CSV_CAST = { boolean: (value: boolean) => String(value), string: csvCell };

/**
 * Records read before the CSV header or the table's column widths are fixed, so columns that only
 * some records have count. Everything after streams: memory stays bounded whatever the count.
 */
const SAMPLE_SIZE = 256;

/** Lines of a table collected into one write. */
const TABLE_BATCH = 256;

type DataRecord = Record<string, unknown>;

/** How records are written besides their format. */
export interface WriteOptions {
  /** Warnings about the output itself (not data); they go to stderr. */
  warn(message: string): void;
  /**
   * `--columns`: the columns of `table` and `csv` (dotted for nested fields); every column when
   * left out. A name that no record of the sample has is a usage error.
   */
  columns?: readonly string[] | undefined;
  /** The command's own choice of columns, used when `columns` is not given; never checked. */
  defaultColumns?: readonly string[] | undefined;
  /** The width a table must fit (the terminal's); no limit when left out. */
  maxWidth?: number | undefined;
  /**
   * A table for another program rather than a person (stdout is not a terminal and no format
   * was chosen): tab-separated columns, no header, nothing cut, as gh writes one.
   */
  plain?: boolean | undefined;
  /** `--query`: a JMESPath expression; what it selects of the data is written instead. */
  query?: string | undefined;
}

function checkedRecord(record: unknown): DataRecord {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    const got = record === null ? 'null' : Array.isArray(record) ? 'a list' : typeof record;
    throw new DataError(`the service sent a record that is not an object (got ${got})`);
  }
  return record as DataRecord;
}

/** The columns to write: the chosen ones, checked against the sample, or the sample's own. */
function pickColumns(
  sample: readonly Record<string, Cell>[],
  options: Partial<WriteOptions>,
): string[] {
  const present = columnsOf(sample);
  if (options.columns === undefined) return [...(options.defaultColumns ?? present)];
  if (sample.length > 0) {
    const known = new Set(present);
    const unknown = options.columns.filter((column) => !known.has(column));
    if (unknown.length > 0) {
      const names = unknown.join(', ');
      throw new UsageError(
        `--columns: no record has ${unknown.length === 1 ? 'the column' : 'the columns'} ${names}; the columns are ${present.join(', ')}`,
      );
    }
  }
  return [...options.columns];
}

/** Warns once per column that first shows up after the columns were fixed. */
function lateColumnWarner(options: WriteOptions, after: string) {
  const dropped = new Set<string>();
  return (known: ReadonlySet<string>, row: Record<string, Cell>) => {
    if (options.columns !== undefined || options.defaultColumns !== undefined) return;
    for (const column of Object.keys(row)) {
      if (!known.has(column) && !dropped.has(column)) {
        dropped.add(column);
        options.warn(`column ${column} first appears after ${after}; it is left out`);
      }
    }
  };
}

/**
 * Reads records into a sample until it is full, then calls `start` once with the sample and
 * `each` for every later record; `start` gets the whole input when it is shorter. Returns the
 * number of records.
 */
async function sampleThenStream(
  records: AsyncIterable<unknown>,
  start: (sample: Record<string, Cell>[]) => Promise<void>,
  each: (row: Record<string, Cell>) => Promise<void>,
  summarized?: Set<string>,
): Promise<number> {
  let sample: Record<string, Cell>[] | undefined = [];
  let count = 0;
  for await (const record of records) {
    count += 1;
    const row = flatten(checkedRecord(record), summarized);
    if (sample === undefined) {
      await each(row);
    } else {
      sample.push(row);
      if (sample.length >= SAMPLE_SIZE) {
        await start(sample);
        sample = undefined;
      }
    }
  }
  if (sample !== undefined) await start(sample);
  return count;
}

async function writeCsv(
  records: AsyncIterable<unknown>,
  sink: OutputSink,
  options: WriteOptions,
): Promise<number> {
  let columns: { key: string; header: string }[] = [];
  let known = new Set<string>();
  const warnLate = lateColumnWarner(options, 'the CSV header was written');
  let pending: Record<string, Cell>[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await sink.write(stringify(pending, { columns, cast: CSV_CAST }));
    pending = [];
  };
  const count = await sampleThenStream(
    records,
    async (sample) => {
      // No records: no header either, unless the columns were chosen.
      if (sample.length === 0 && options.columns === undefined) return;
      const names = pickColumns(sample, options);
      known = new Set(names);
      columns = names.map((key) => ({ key, header: csvCell(key) }));
      await sink.write(stringify(sample, { header: true, columns, cast: CSV_CAST }));
    },
    async (row) => {
      warnLate(known, row);
      pending.push(row);
      if (pending.length >= SAMPLE_SIZE) await flush();
    },
  );
  await flush();
  return count;
}

/** One row of a plain table: tab-separated cells, nothing cut. */
function plainLine(columns: readonly string[], row: Readonly<Record<string, Cell>>): string {
  return `${columns.map((column) => cellText(row[column])).join('\t')}\n`;
}

/** Says once which columns of a table are lists shown as their count. */
function noteSummarized(summarized: ReadonlySet<string>, options: Partial<WriteOptions>): void {
  if (summarized.size === 0) return;
  const names = [...summarized].join(', ');
  options.warn?.(
    `note: ${names} ${summarized.size === 1 ? 'is a list' : 'are lists'} shown as a count; -o json shows every field`,
  );
}

async function writeTable(
  records: AsyncIterable<unknown>,
  sink: OutputSink,
  options: WriteOptions,
): Promise<number> {
  let render: (row: Record<string, Cell>) => string = () => '';
  let known = new Set<string>();
  const warnLate = lateColumnWarner(options, "the table's columns were fixed");
  const summarized = new Set<string>();
  let lines: string[] = [];
  const flush = async () => {
    if (lines.length === 0) return;
    await sink.write(lines.join(''));
    lines = [];
  };
  const count = await sampleThenStream(
    records,
    async (sample) => {
      if (sample.length === 0) return;
      const chosen = pickColumns(sample, options);
      if (options.plain === true) {
        known = new Set(chosen);
        render = (row) => plainLine(chosen, row);
        await sink.write(sample.map(render).join(''));
        return;
      }
      const active = layoutTable(
        chosen,
        sample,
        options.maxWidth,
        options.columns === undefined && options.defaultColumns === undefined,
      );
      known = new Set([...active.columns, ...active.hidden]);
      render = (row) => renderRow(active, row);
      if (active.hidden.length > 0) {
        options.warn(
          `${active.hidden.length} of ${active.columns.length + active.hidden.length} columns do not fit the terminal and are left out (${active.hidden.join(', ')}); choose them with --columns, or use -o csv or json`,
        );
      }
      await sink.write(renderHeader(active) + sample.map(render).join(''));
    },
    async (row) => {
      warnLate(known, row);
      lines.push(render(row));
      if (lines.length >= TABLE_BATCH) await flush();
    },
    summarized,
  );
  await flush();
  // Said on stderr: a file or a pipe gets data only.
  if (count === 0) options.warn('No records.');
  noteSummarized(summarized, options);
  return count;
}

/**
 * Writes a stream of records in the chosen format and returns how many there were. `json` is one
 * array with a record per line, `ndjson` one record per line and nothing else, `csv` flattens
 * nested fields into dotted columns, `table` (for people) sizes its columns from the first
 * records, then streams. Memory stays bounded for any number of records.
 */
export async function writeRecords(
  records: AsyncIterable<unknown> | Iterable<unknown>,
  format: OutputFormat,
  sink: OutputSink,
  options: WriteOptions,
): Promise<number> {
  if (options.query !== undefined) {
    const all: unknown[] = [];
    for await (const record of toAsync(records)) all.push(record);
    await writeSelected(search(all as never, options.query), format, sink, options);
    return all.length;
  }
  const stream = toAsync(records);
  let count = 0;
  switch (format) {
    case 'ndjson':
      for await (const record of stream) {
        count += 1;
        await sink.write(`${jsonText(JSON.stringify(checkedRecord(record)))}\n`);
      }
      return count;
    case 'json': {
      // Should the listing fail or be interrupted, what was written still ends as an array.
      const ending = () => (count === 0 ? '[]\n' : '\n]\n');
      sink.ending = ending;
      for await (const record of stream) {
        const json = jsonText(JSON.stringify(checkedRecord(record)));
        await sink.write(`${count === 0 ? '[\n' : ',\n'}  ${json}`);
        count += 1;
      }
      sink.ending = undefined;
      await sink.write(ending());
      return count;
    }
    case 'csv':
      return writeCsv(stream, sink, options);
    case 'table':
      return writeTable(stream, sink, options);
  }
}

/**
 * Writes one record (a created quote, a receipt) in the chosen format: `table` shows it as
 * `key  value` lines, `csv` as a header and one row.
 */
export async function writeRecord(
  record: unknown,
  format: OutputFormat,
  sink: OutputSink,
  options: Partial<WriteOptions> = {},
): Promise<void> {
  if (options.query !== undefined) {
    return writeSelected(search(record as never, options.query), format, sink, options);
  }
  const checked = checkedRecord(record);
  switch (format) {
    case 'ndjson':
      return sink.write(`${jsonText(JSON.stringify(checked))}\n`);
    case 'json':
      return sink.write(`${jsonText(JSON.stringify(checked, null, 2))}\n`);
    case 'csv': {
      const row = flatten(checked);
      const columns = pickColumns([row], options).map((key) => ({ key, header: csvCell(key) }));
      return sink.write(stringify([row], { header: true, columns, cast: CSV_CAST }));
    }
    case 'table': {
      const summarized = new Set<string>();
      const whole = flatten(checked, summarized);
      // `--columns` chooses the lines of one record as it chooses the columns of many.
      const chosen = pickColumns([whole], options);
      const row = Object.fromEntries(chosen.map((key) => [key, whole[key]])) as typeof whole;
      await sink.write(
        options.plain === true
          ? Object.entries(row)
              .map(([key, value]) => `${cellText(key)}\t${cellText(value)}\n`)
              .join('')
          : renderKeyValues(row, options.maxWidth),
      );
      return noteSummarized(summarized, options);
    }
  }
}

function isRecord(value: unknown): value is DataRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes what `--query` selected: records as records, one record as one, anything else (names,
 * counts) as JSON in json and ndjson, and as one value a line in table and csv, as `aws --query`
 * with text output does.
 */
async function writeSelected(
  value: unknown,
  format: OutputFormat,
  sink: OutputSink,
  options: Partial<WriteOptions>,
): Promise<void> {
  const rest = { ...options, query: undefined, warn: options.warn ?? (() => {}) };
  if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
    await writeRecords(value, format, sink, rest);
    return;
  }
  if (isRecord(value)) return writeRecord(value, format, sink, rest);
  const text = (item: unknown) => (typeof item === 'string' ? item : JSON.stringify(item));
  if (format === 'json') return sink.write(`${jsonText(JSON.stringify(value, null, 2))}\n`);
  const items = Array.isArray(value) ? value : [value];
  const lines = items.map((item) =>
    format === 'ndjson' ? jsonText(JSON.stringify(item)) : cellText(text(item)),
  );
  await sink.write(lines.map((line) => `${line}\n`).join(''));
}

async function* toAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> {
  yield* items;
}
