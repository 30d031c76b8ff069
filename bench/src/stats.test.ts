import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats.js';

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones otherwise', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });
});

describe('percentile', () => {
  const samples = Float64Array.from({ length: 100 }, (_, i) => i + 1);

  it('returns the nearest-rank sample', () => {
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('is NaN for no samples', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});
