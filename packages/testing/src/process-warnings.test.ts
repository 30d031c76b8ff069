import { describe, expect, it } from 'vitest';
import { warningsDuring } from './process-warnings.js';

describe('warningsDuring', () => {
  it("returns the warnings emitted while the work ran, and none of a later one's", async () => {
    const warnings = await warningsDuring(async () => {
      process.emitWarning('first', 'TestWarning');
      await Promise.resolve();
      process.emitWarning('second', 'TestWarning');
    });
    expect(warnings.map((w) => w.message)).toEqual(['first', 'second']);
    expect(await warningsDuring(async () => undefined)).toEqual([]);
  });
});
