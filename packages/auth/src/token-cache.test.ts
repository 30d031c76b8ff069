import { describe, expect, it, vi } from 'vitest';

describe('sharedTokenCache', () => {
  it('is one per process, even when this package is loaded twice', async () => {
    const first = await import('./token-cache.js');
    vi.resetModules();
    const second = await import('./token-cache.js');

    expect(second.TokenCache).not.toBe(first.TokenCache);
    expect(second.sharedTokenCache).toBe(first.sharedTokenCache);
  });
});
