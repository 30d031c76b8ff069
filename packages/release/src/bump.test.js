// @ts-check
import { describe, expect, it } from 'vitest';
import {
  bumpBetween,
  majorOf,
  maxBump,
  promisedBump,
  releaseCovers,
  smallestCoveringRelease,
} from './bump.js';

describe('bump rules', () => {
  it('takes the largest bump', () => {
    expect(maxBump(['patch', 'major', 'minor'])).toBe('major');
    expect(maxBump([])).toBe('none');
  });

  it('reads the bump between two versions', () => {
    expect(bumpBetween('1.2.3', '2.0.0')).toBe('major');
    expect(bumpBetween('1.2.3', '1.3.0')).toBe('minor');
    expect(bumpBetween('1.2.3', '1.2.4')).toBe('patch');
    expect(bumpBetween('1.2.3', '1.2.3')).toBe('none');
    expect(bumpBetween('1.2.3', '1.1.9')).toBe('none');
    expect(bumpBetween('0.0.0', '0.1.0')).toBe('minor');
  });

  it('reads the major number, and refuses what is no version', () => {
    expect(majorOf('12.0.1-next.0')).toBe(12);
    expect(() => majorOf('v1')).toThrow('Not a semver version: "v1"');
  });

  it('follows semver below 1.0.0: minor may break, patch may add', () => {
    expect(promisedBump('minor', '0.4.2')).toBe('major');
    expect(promisedBump('patch', '0.4.2')).toBe('minor');
    expect(promisedBump('minor', '1.4.2')).toBe('minor');
    expect(releaseCovers('minor', '0.4.2', 'major')).toBe(true);
    expect(releaseCovers('minor', '1.4.2', 'major')).toBe(false);
    expect(releaseCovers('none', '0.4.2', 'patch')).toBe(false);
    expect(smallestCoveringRelease('major', '0.4.2')).toBe('minor');
    expect(smallestCoveringRelease('major', '1.4.2')).toBe('major');
    expect(smallestCoveringRelease('none', '1.4.2')).toBe('none');
  });
});
