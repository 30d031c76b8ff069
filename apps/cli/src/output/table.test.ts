import { describe, expect, test } from 'vitest';
import { layoutTable, renderKeyValues, renderRow, renderTable } from './table.js';

test('long text is cut to 40 characters and line breaks become spaces', () => {
  const long = 'x '.repeat(30);
  const table = renderTable(
    ['id', 'note'],
    [
      { id: 1, note: long },
      { id: 2, note: 'two\nlines' },
    ],
  );
  const [, , first, second] = table.split('\n');
  expect(first).toBe(`1   ${'x '.repeat(19)}x…`);
  expect(second).toBe('2   two lines');
});

test('missing and null cells are blank', () => {
  expect(renderTable(['a', 'b'], [{ a: null }, { b: false }])).toBe('a  b\n-  -----\n\n   false\n');
});

test('key-value lines are aligned on the longest key', () => {
  expect(renderKeyValues({ id: 'Q1', status: 'quoted' })).toBe('id      Q1\nstatus  quoted\n');
});

test('key-value lines show control characters as escapes; a long value continues, never cut', () => {
  expect(renderKeyValues({ id: 'Q1\x1b[31m', note: 'Large loss potential in the US' }, 40)).toBe(
    'id    Q1\\x1b[31m\nnote  Large loss potential in the US\n',
  );
  expect(renderKeyValues({ note: 'Large loss potential in the US and Canada' }, 40)).toBe(
    'note  Large loss potential in the US and\n      Canada\n',
  );
});

test('keys too wide to leave 30 columns beside them: each value under its key, indented', () => {
  const row = { 'riskEngineering.subscriptionKeySecondary': '****1f12 (PARTNER_APIS_X)' };
  expect(renderKeyValues(row, 60)).toBe(
    'riskEngineering.subscriptionKeySecondary\n  ****1f12 (PARTNER_APIS_X)\n',
  );
});

test('a large sample is laid out without spreading it into one call', () => {
  const rows = Array.from({ length: 300_000 }, (_, index) => ({ id: index }));
  expect(layoutTable(['id'], rows).widths).toEqual([6]);
});

describe('a table narrower than its content', () => {
  const quotes = [
    {
      quoteId: 'QTE-2026-0000001',
      status: 'referred',
      reason: 'Sales into the US need a manual review by an underwriter',
      policyLines: '[{"policyLineId":"liability","declarativeQuestions":{"countryOfSales":"US"}}]',
      createdAt: '2026-03-01T10:00:00Z',
    },
  ];

  test('free text is narrowed first; JSON is left out before anything else', () => {
    const layout = layoutTable(Object.keys(quotes[0]!), quotes, 60);
    expect(layout.columns).toEqual(['quoteId', 'status', 'reason', 'createdAt']);
    expect(layout.hidden).toEqual(['policyLines']);
    const table = renderTable(Object.keys(quotes[0]!), quotes, 60);
    expect(table.split('\n')[2]).toBe(
      'QTE-2026-0000001  referred  Sales int…  2026-03-01T10:00:00Z',
    );
    expect(table.split('\n').every((line) => line.length <= 60)).toBe(true);
  });

  test('an id is never cut nor left out, however narrow the terminal', () => {
    const layout = layoutTable(Object.keys(quotes[0]!), quotes, 12);
    expect(layout.columns).toEqual(['quoteId']);
    expect(
      renderTable(
        ['quoteId', 'sellerId'],
        [{ quoteId: 'QTE-2026-0000001', sellerId: 'SEL-000001' }],
        20,
      ),
    ).toContain('QTE-2026-0000001  SEL-000001');
    expect(layoutTable(['ref'], [{ ref: 'QTE-2026-0000001' }], 8).widths).toEqual([16]);
  });

  test('an id longer than those the widths came from is still shown whole', () => {
    const layout = layoutTable(['locationId', 'city'], [{ locationId: 'L-1', city: 'Lyon' }], 20);
    expect(renderRow(layout, { locationId: 'LOC-0000012', city: 'Lyon' })).toBe(
      'LOC-0000012  Lyon\n',
    );
  });
});
