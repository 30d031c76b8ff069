import { describe, expect, test } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { OutputSink } from './output-sink.js';
import { writeRecord, writeRecords } from './record-writer.js';

function memorySink(): OutputSink & { text: () => string } {
  const chunks: string[] = [];
  return {
    write: async (text) => {
      chunks.push(text);
    },
    close: async () => {},
    text: () => chunks.join(''),
  };
}

async function* generate<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

const locations = [
  { locationId: 'LOC-1', address: { city: 'Lyon', country: 'FR' }, values: { buildings: 10 } },
  { locationId: 'LOC-2', address: { city: 'Rotterdam, Zuid', country: 'NL' }, sprinklered: true },
];

describe('writeRecords', () => {
  test('ndjson is one JSON record per line and nothing else', async () => {
    const sink = memorySink();
    expect(await writeRecords(generate(locations), 'ndjson', sink, { warn: () => {} })).toBe(2);
    const lines = sink.text().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((line) => JSON.parse(line))).toEqual(locations);
  });

  test('json is one array, also when empty', async () => {
    const sink = memorySink();
    await writeRecords(generate(locations), 'json', sink, { warn: () => {} });
    expect(JSON.parse(sink.text())).toEqual(locations);
    const empty = memorySink();
    expect(await writeRecords([], 'json', empty, { warn: () => {} })).toBe(0);
    expect(JSON.parse(empty.text())).toEqual([]);
  });

  test('csv flattens nested fields into dotted columns and quotes where needed', async () => {
    const sink = memorySink();
    await writeRecords(generate(locations), 'csv', sink, { warn: () => {} });
    expect(sink.text().split('\n')[0]).toBe(
      'locationId,address.city,address.country,values.buildings,sprinklered',
    );
    expect(parse(sink.text(), { columns: true })).toEqual([
      {
        locationId: 'LOC-1',
        'address.city': 'Lyon',
        'address.country': 'FR',
        'values.buildings': '10',
        sprinklered: '',
      },
      {
        locationId: 'LOC-2',
        'address.city': 'Rotterdam, Zuid',
        'address.country': 'NL',
        'values.buildings': '',
        sprinklered: 'true',
      },
    ]);
  });

  test('csv warns once about a column that first appears after the header', async () => {
    const records = Array.from({ length: 300 }, (_, index) =>
      index === 280 || index === 290 ? { id: index, late: 'x' } : { id: index },
    );
    const warnings: string[] = [];
    const sink = memorySink();
    expect(
      await writeRecords(generate(records), 'csv', sink, { warn: (w) => warnings.push(w) }),
    ).toBe(300);
    expect(warnings).toEqual([
      'column late first appears after the CSV header was written; it is left out',
    ]);
    expect(sink.text().trim().split('\n')).toHaveLength(301);
  });

  test('--columns picks the columns of table and csv', async () => {
    const table = memorySink();
    const columns = ['address.city', 'locationId', 'missing'];
    await writeRecords(generate(locations), 'table', table, { warn: () => {}, columns });
    expect(table.text().split('\n')[0]).toBe('address.city     locationId  missing');
    const csv = memorySink();
    await writeRecords(generate(locations), 'csv', csv, { warn: () => {}, columns });
    expect(csv.text()).toBe(
      'address.city,locationId,missing\nLyon,LOC-1,\n"Rotterdam, Zuid",LOC-2,\n',
    );
  });

  test('table aligns columns and says so when there are no records', async () => {
    const sink = memorySink();
    await writeRecords(generate(locations.slice(0, 1)), 'table', sink, { warn: () => {} });
    expect(sink.text()).toBe(
      [
        'locationId  address.city  address.country  values.buildings',
        '----------  ------------  ---------------  ----------------',
        'LOC-1       Lyon          FR               10',
        '',
      ].join('\n'),
    );
    const empty = memorySink();
    await writeRecords([], 'table', empty, { warn: () => {} });
    expect(empty.text()).toBe('No records.\n');
  });
});

describe('writeRecord', () => {
  const quote = { quoteId: 'QTE-1', price: { amount: '120.50', currency: 'EUR' }, referrals: [] };

  test.each([
    ['json', `${JSON.stringify(quote, null, 2)}\n`],
    ['ndjson', `${JSON.stringify(quote)}\n`],
    ['csv', 'quoteId,price.amount,price.currency,referrals\nQTE-1,120.50,EUR,\n'],
    ['table', 'quoteId         QTE-1\nprice.amount    120.50\nprice.currency  EUR\nreferrals\n'],
  ] as const)('%s', async (format, expected) => {
    const sink = memorySink();
    await writeRecord(quote, format, sink);
    expect(sink.text()).toBe(expected);
  });
});
