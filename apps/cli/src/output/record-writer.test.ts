import { describe, expect, test } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { OutputSink } from './output-sink.js';
import { DataError, UsageError } from '../usage-error.js';
import { writeRecord, writeRecords } from './record-writer.js';

function memorySink(): OutputSink & { text: () => string } {
  const chunks: string[] = [];
  return {
    write: async (text) => {
      chunks.push(String(text));
    },
    close: async () => {},
    abort: async () => {},
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
    const columns = ['address.city', 'locationId', 'sprinklered'];
    await writeRecords(generate(locations), 'table', table, { warn: () => {}, columns });
    expect(table.text().split('\n')[0]).toBe('address.city     locationId  sprinklered');
    const csv = memorySink();
    await writeRecords(generate(locations), 'csv', csv, { warn: () => {}, columns });
    expect(csv.text()).toBe(
      'address.city,locationId,sprinklered\nLyon,LOC-1,\n"Rotterdam, Zuid",LOC-2,true\n',
    );
  });

  test.each(['table', 'csv'] as const)(
    '%s: a --columns name that no record has is a usage error, before anything is written',
    async (format) => {
      const sink = memorySink();
      const failure = writeRecords(generate(locations), format, sink, {
        warn: () => {},
        columns: ['locationId', 'adress.city'],
      });
      await expect(failure).rejects.toBeInstanceOf(UsageError);
      await expect(failure).rejects.toThrow(
        /^--columns: no record has the column adress\.city; the columns are locationId, address\.city,/,
      );
      expect(sink.text()).toBe('');
    },
  );

  test('table: 200,000 rows stream out as they come, laid out from the first records', async () => {
    const sink = memorySink();
    let writtenBeforeEnd = 0;
    async function* many() {
      for (let index = 0; index < 200_000; index += 1) {
        if (index === 199_999) writtenBeforeEnd = sink.text().length;
        yield { id: `LOC-${index}`, city: index % 2 === 0 ? 'Lyon' : 'Rotterdam' };
      }
    }
    expect(await writeRecords(many(), 'table', sink, { warn: () => {} })).toBe(200_000);
    const lines = sink.text().split('\n');
    expect(lines).toHaveLength(200_003);
    expect(lines[0]).toBe('id       city');
    // LOC-0 … LOC-255 set the widths; a longer id after them is still shown whole.
    expect(lines[200_001]).toBe('LOC-199999  Rotterdam');
    expect(writtenBeforeEnd).toBeGreaterThan(sink.text().length / 2);
  });

  test('table: columns fit the width given, long cells end with an ellipsis', async () => {
    const sink = memorySink();
    const records = [{ id: 'Q-1', note: 'x '.repeat(30), city: 'Rotterdam-Zuid' }];
    await writeRecords(records, 'table', sink, { warn: () => {}, maxWidth: 31 });
    const lines = sink.text().split('\n');
    expect(lines[0]).toBe('id   note        city');
    expect(lines[2]).toBe('Q-1  x x x x x…  Rotterdam-Zuid');
    expect(lines.every((line) => line.length <= 31)).toBe(true);
  });

  test('table: columns that cannot fit even narrowed are left out from the end, with a warning', async () => {
    const sink = memorySink();
    const warnings: string[] = [];
    const records = [{ a: 'x'.repeat(20), b: 'y'.repeat(5), c: 'z'.repeat(20), d: 'w' }];
    await writeRecords(records, 'table', sink, { warn: (w) => warnings.push(w), maxWidth: 30 });
    expect(sink.text().split('\n')[2]).toBe(`${'x'.repeat(20)}  ${'y'.repeat(5)}`);
    expect(warnings).toEqual([
      '2 of 4 columns do not fit the terminal and are left out (c, d); choose them with --columns, or use -o csv or json',
    ]);
  });

  test('table and csv show control characters from a server as escapes', async () => {
    const hostile = [{ id: 'L\x1b]0;owned\x07', name: 'a\x1b[2Jb\u009b31m', note: 'x\u202ey' }];
    const table = memorySink();
    await writeRecords(hostile, 'table', table, { warn: () => {} });
    // eslint-disable-next-line no-control-regex -- no control character may get through
    expect(table.text()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(table.text()).toContain('L\\x1b]0;owned\\x07');
    expect(table.text()).toContain('a\\x1b[2Jb\\x9b31m');
    const csv = memorySink();
    await writeRecords(hostile, 'csv', csv, { warn: () => {} });
    // eslint-disable-next-line no-control-regex -- no control character may get through
    expect(csv.text()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(csv.text().split('\n')[1]).toBe('L\\x1b]0;owned\\x07,a\\x1b[2Jb\\x9b31m,x\\u202ey');
  });

  test.each(['json', 'ndjson'] as const)(
    '%s stays the same JSON, with no raw control character',
    async (format) => {
      const hostile = [{ name: 'a\x1b[2Jb\u009b31m\u007f', note: 'x\u202ey' }];
      const sink = memorySink();
      await writeRecords(hostile, format, sink, { warn: () => {} });
      // eslint-disable-next-line no-control-regex -- no control character may get through
      expect(sink.text()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
      const parsed: unknown = format === 'json' ? JSON.parse(sink.text()) : JSON.parse(sink.text());
      expect(parsed).toEqual(format === 'json' ? hostile : hostile[0]);
    },
  );

  test('csv: a cell a spreadsheet would run as a formula starts with an apostrophe', async () => {
    const sink = memorySink();
    const records = [
      { a: '=HYPERLINK("http://x","y")', b: '+1', c: '-2+3', d: '@SUM(A1)', e: '\tx', f: '\rx' },
      { a: 'plain', b: -5, c: 'a=b', d: '', e: 'x', f: 'y' },
    ];
    await writeRecords(records, 'csv', sink, { warn: () => {} });
    expect(parse(sink.text(), { columns: true })).toEqual([
      {
        a: '\'=HYPERLINK("http://x","y")',
        b: "'+1",
        c: "'-2+3",
        d: "'@SUM(A1)",
        e: "'\tx",
        f: "'\rx",
      },
      { a: 'plain', b: '-5', c: 'a=b', d: '', e: 'x', f: 'y' },
    ]);
  });

  test('a record that is not an object is a data error, not a TypeError', async () => {
    for (const format of ['table', 'csv', 'json', 'ndjson'] as const) {
      const failure = writeRecords([{ id: 1 }, null], format, memorySink(), { warn: () => {} });
      await expect(failure).rejects.toBeInstanceOf(DataError);
      await expect(failure).rejects.toThrow(
        'the service sent a record that is not an object (got null)',
      );
    }
  });

  test('table aligns columns; with no records it writes nothing and says so on stderr', async () => {
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
    const notes: string[] = [];
    await writeRecords([], 'table', empty, { warn: (note) => notes.push(note) });
    expect(empty.text()).toBe('');
    expect(notes).toEqual(['No records.']);
  });

  test('csv with no records writes nothing; with --columns, only their header', async () => {
    const empty = memorySink();
    await writeRecords([], 'csv', empty, { warn: () => {} });
    expect(empty.text()).toBe('');
    const chosen = memorySink();
    await writeRecords([], 'csv', chosen, { warn: () => {}, columns: ['locationId', 'name'] });
    expect(chosen.text()).toBe('locationId,name\n');
  });

  test('plain table (a pipe): tab-separated cells, no header, nothing cut, whatever the width', async () => {
    const sink = memorySink();
    const long = 'x'.repeat(300);
    await writeRecords([...locations, { locationId: 'LOC-3', note: long }], 'table', sink, {
      warn: () => {},
      plain: true,
      maxWidth: 40,
    });
    expect(sink.text().split('\n')).toEqual([
      'LOC-1\tLyon\tFR\t10\t\t',
      'LOC-2\tRotterdam, Zuid\tNL\t\ttrue\t',
      `LOC-3\t\t\t\t\t${long}`,
      '',
    ]);
  });

  test('table: a list of records is its count, with one note naming -o json', async () => {
    const quotes = [
      { quoteId: 'QTE-1', referrals: [{ code: 'R1', reason: 'Sales into the US' }], tags: ['a'] },
      { quoteId: 'QTE-2', referrals: [{ code: 'R1' }, { code: 'R2' }], tags: [] },
    ];
    const sink = memorySink();
    const notes: string[] = [];
    await writeRecords(quotes, 'table', sink, { warn: (note) => notes.push(note) });
    expect(sink.text()).toBe(
      [
        'quoteId  referrals  tags',
        '-------  ---------  ----',
        'QTE-1    1 item     a',
        'QTE-2    2 items',
        '',
      ].join('\n'),
    );
    expect(sink.text()).not.toContain('{');
    expect(notes).toEqual([
      'note: referrals is a list shown as a count; -o json shows every field',
    ]);
    const csv = memorySink();
    await writeRecords(quotes, 'csv', csv, { warn: () => {} });
    expect(csv.text()).toContain('"[{""code"":""R1"",""reason"":""Sales into the US""}]"');
  });

  test.each([
    ['[].locationId', 'table', 'LOC-1\nLOC-2\n'],
    ['[].locationId', 'json', '[\n  "LOC-1",\n  "LOC-2"\n]\n'],
    ['[].locationId', 'ndjson', '"LOC-1"\n"LOC-2"\n'],
    ['length(@)', 'table', '2\n'],
    [
      "[?address.country=='NL'].{id: locationId, city: address.city}",
      'csv',
      'id,city\nLOC-2,"Rotterdam, Zuid"\n',
    ],
  ] as const)('--query %s -o %s: what the expression selects', async (query, format, expected) => {
    const sink = memorySink();
    await writeRecords(generate(locations), format, sink, { warn: () => {}, query });
    expect(sink.text()).toBe(expected);
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
