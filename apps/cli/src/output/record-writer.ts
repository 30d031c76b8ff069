import { stringify } from 'csv-stringify/sync';
import { columnsOf, flatten, type Cell } from './flatten.js';
import type { OutputSink } from './output-sink.js';
import { renderKeyValues, renderTable } from './table.js';

/** The output formats of every command that prints data. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** csv-stringify writes booleans as 1 and an empty cell; spreadsheets and people read true/false. */
const CSV_CAST = { boolean: (value: boolean) => String(value) };

/** Records read before the CSV header is written, so columns that only some records have count. */
const CSV_HEADER_SAMPLE = 256;

type DataRecord = Record<string, unknown>;

/** How records are written besides their format. */
export interface WriteOptions {
  /** Warnings about the output itself (not data); they go to stderr. */
  warn(message: string): void;
  /** The columns of `table` and `csv` (dotted for nested fields); every column when left out. */
  columns?: readonly string[] | undefined;
}

async function writeCsv(
  records: AsyncIterable<DataRecord>,
  sink: OutputSink,
  { warn, columns: chosen }: WriteOptions,
): Promise<number> {
  let columns = chosen === undefined ? undefined : [...chosen];
  let sample: Record<string, Cell>[] = [];
  let count = 0;
  let headerWritten = false;
  const dropped = new Set<string>();
  const flush = async (rows: Record<string, Cell>[]) => {
    const header = !headerWritten;
    headerWritten = true;
    columns ??= columnsOf(rows);
    const known = new Set(columns);
    for (const row of chosen === undefined ? rows : []) {
      for (const column of Object.keys(row)) {
        if (!known.has(column) && !dropped.has(column)) {
          dropped.add(column);
          warn(`column ${column} first appears after the CSV header was written; it is left out`);
        }
      }
    }
    if (rows.length > 0 || header)
      await sink.write(stringify(rows, { header, columns, cast: CSV_CAST }));
  };
  for await (const record of records) {
    count += 1;
    sample.push(flatten(record));
    if (sample.length >= CSV_HEADER_SAMPLE) {
      await flush(sample);
      sample = [];
    }
  }
  if (sample.length > 0 || !headerWritten) await flush(sample);
  return count;
}

/**
 * Writes a stream of records in the chosen format and returns how many there were. `json` is one
 * array with a record per line, `ndjson` one record per line and nothing else, `csv` flattens
 * nested fields into dotted columns, `table` (for people) waits for the last record to size its
 * columns.
 *
 * @example
 * const count = await writeRecords(client.locations.list(), 'ndjson', sink, { warn: console.warn });
 */
export async function writeRecords(
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
  format: OutputFormat,
  sink: OutputSink,
  options: WriteOptions,
): Promise<number> {
  const stream = toAsync(records);
  let count = 0;
  switch (format) {
    case 'ndjson':
      for await (const record of stream) {
        count += 1;
        await sink.write(`${JSON.stringify(record)}\n`);
      }
      return count;
    case 'json':
      for await (const record of stream) {
        await sink.write(`${count === 0 ? '[\n' : ',\n'}  ${JSON.stringify(record)}`);
        count += 1;
      }
      await sink.write(count === 0 ? '[]\n' : '\n]\n');
      return count;
    case 'csv':
      return writeCsv(stream, sink, options);
    case 'table': {
      const rows: Record<string, Cell>[] = [];
      for await (const record of stream) rows.push(flatten(record));
      const columns = options.columns ?? columnsOf(rows);
      await sink.write(rows.length === 0 ? 'No records.\n' : renderTable(columns, rows));
      return rows.length;
    }
  }
}

/**
 * Writes one record (a created quote, a receipt) in the chosen format: `table` shows it as
 * `key  value` lines, `csv` as a header and one row.
 *
 * @example
 * await writeRecord(quote, 'table', sink);
 */
export async function writeRecord(
  record: DataRecord,
  format: OutputFormat,
  sink: OutputSink,
): Promise<void> {
  switch (format) {
    case 'ndjson':
      return sink.write(`${JSON.stringify(record)}\n`);
    case 'json':
      return sink.write(`${JSON.stringify(record, null, 2)}\n`);
    case 'csv': {
      const row = flatten(record);
      return sink.write(
        stringify([row], { header: true, columns: Object.keys(row), cast: CSV_CAST }),
      );
    }
    case 'table':
      return sink.write(renderKeyValues(flatten(record)));
  }
}

async function* toAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> {
  yield* items;
}
