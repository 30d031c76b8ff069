import { describe, expect, it } from 'vitest';
import { warningsDuring } from './process-warnings.js';

describe('warningsDuring', () => {
  it("returns the warnings emitted while the work ran, and none of a later one's", async () => {
    // Node also prints these two, as it prints every warning.
    const warnings = await warningsDuring(async () => {
      process.emitWarning('first, emitted on purpose by process-warnings.test.ts', 'TestWarning');
      await Promise.resolve();
      process.emitWarning('second, emitted on purpose by process-warnings.test.ts', 'TestWarning');
    });
    expect(warnings.map((w) => w.message.split(',')[0])).toEqual(['first', 'second']);
    expect(await warningsDuring(async () => undefined)).toEqual([]);
  });
});
