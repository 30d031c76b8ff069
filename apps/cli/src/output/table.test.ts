import { expect, test } from 'vitest';
import { layoutTable, renderKeyValues, renderTable } from './table.js';

test('long cells are cut to 40 characters and line breaks become spaces', () => {
  const long = 'x'.repeat(60);
  const table = renderTable(
    ['id', 'note'],
    [
      { id: 1, note: long },
      { id: 2, note: 'two\nlines' },
    ],
  );
  const [, , first, second] = table.split('\n');
  expect(first).toBe(`1   ${'x'.repeat(39)}…`);
  expect(second).toBe('2   two lines');
});

test('missing and null cells are blank', () => {
  expect(renderTable(['a', 'b'], [{ a: null }, { b: false }])).toBe('a  b\n-  -----\n\n   false\n');
});

test('key-value lines are aligned on the longest key', () => {
  expect(renderKeyValues({ id: 'Q1', status: 'quoted' })).toBe('id      Q1\nstatus  quoted\n');
});

test('key-value lines show control characters as escapes and fit the width given', () => {
  expect(renderKeyValues({ id: 'Q1\x1b[31m', note: 'y'.repeat(40) }, 20)).toBe(
    `id    Q1\\x1b[31m\nnote  ${'y'.repeat(13)}…\n`,
  );
});

test('a large sample is laid out without spreading it into one call', () => {
  const rows = Array.from({ length: 300_000 }, (_, index) => ({ id: index }));
  expect(layoutTable(['id'], rows).widths).toEqual([6]);
});
