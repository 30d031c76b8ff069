import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './index.js';

const now = Date.parse('2026-11-22T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['5', 5000],
    [' 12 ', 12_000],
    ['Sun, 22 Nov 2026 10:01:00 GMT', 60_000],
    ['Sunday, 22-Nov-26 10:00:10 GMT', 10_000],
    ['Sun Nov 22 10:00:02 2026', 2000],
    ['Sat, 21 Nov 2026 10:00:00 GMT', 0],
    ['99999999999999999999', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([null, undefined, '', '-1', '1.5', 'soon', 'Sun, 99 Foo 2026 10:00:00 GMT', '5 s'])(
    'gives undefined for %j',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});
