import { describe, expect, it } from 'vitest';
import { prefetchPages } from './prefetch-pages.js';

function source(total: number, delays: (offset: number) => number) {
  const requested: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (offset: number, limit: number) => {
    requested.push(offset);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, delays(offset)));
    inFlight--;
    const end = Math.min(total, offset + limit);
    return Array.from({ length: Math.max(0, end - offset) }, (_, i) => offset + i);
  };
  return { fetchPage, requested, maxInFlight: () => maxInFlight };
}

describe('prefetchPages', () => {
  it('yields every record once and in order even when later pages answer first', async () => {
    const pages = source(1000, (offset) => (offset % 300 === 0 ? 8 : 1));
    const seen: number[] = [];
    for await (const page of prefetchPages(pages.fetchPage, 100, 4)) seen.push(...page);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('keeps at most `prefetch` pages in flight', async () => {
    const pages = source(2000, () => 1);
    for await (const page of prefetchPages(pages.fetchPage, 100, 3)) expect(page).toHaveLength(100);
    expect(pages.maxInFlight()).toBe(3);
  });

  it('ends at the first short page', async () => {
    const pages = source(250, () => 1);
    const sizes: number[] = [];
    for await (const page of prefetchPages(pages.fetchPage, 100, 1)) sizes.push(page.length);
    expect(sizes).toEqual([100, 100, 50]);
    expect(pages.requested).toEqual([0, 100, 200]);
  });

  it('rejects with the error of a failing page', async () => {
    const failing = async (offset: number) => {
      if (offset === 200) throw new Error('page 3 failed');
      return Array.from({ length: 100 }, () => offset);
    };
    const iterate = async () => {
      for await (const page of prefetchPages(failing, 100, 4)) expect(page).toHaveLength(100);
    };
    await expect(iterate()).rejects.toThrow('page 3 failed');
  });
});
