// @ts-check
import { describe, expect, it } from 'vitest';
import { REDIS_ADVICE, redisPlan } from './requirements.js';

describe('what pnpm check does about redis-server before any test', () => {
  it("nothing when it is installed; installs Debian's package as root; else stops", () => {
    expect(redisPlan({ found: true, root: false, aptGet: false })).toBe('ready');
    expect(redisPlan({ found: false, root: true, aptGet: true })).toBe('install');
    expect(redisPlan({ found: false, root: false, aptGet: true })).toBe('stop');
    expect(redisPlan({ found: false, root: true, aptGet: false })).toBe('stop');
  });

  it('stops with one line that says how', () => {
    expect(REDIS_ADVICE).not.toContain('\n');
    expect(REDIS_ADVICE).toMatch(/apt-get install redis-server/);
  });
});
