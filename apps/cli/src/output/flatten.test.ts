import { expect, test } from 'vitest';
import { columnsOf, flatten } from './flatten.js';

test('nested objects become dotted columns; lists of values are joined, lists of objects stay JSON', () => {
  expect(
    flatten({
      id: 'Q1',
      price: { amount: '10.00', currency: 'EUR' },
      tags: ['a', 2],
      referrals: [{ code: 'US_TERRITORY_OF_SALES' }],
      none: null,
      skipped: undefined,
    }),
  ).toEqual({
    id: 'Q1',
    'price.amount': '10.00',
    'price.currency': 'EUR',
    tags: 'a; 2',
    referrals: '[{"code":"US_TERRITORY_OF_SALES"}]',
    none: null,
  });
});

test('columnsOf keeps the order of first appearance', () => {
  expect(columnsOf([{ b: 1 }, { a: 1, b: 2 }, { c: 3 }])).toEqual(['b', 'a', 'c']);
});
