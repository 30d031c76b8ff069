// @ts-check
import { describe, expect, it } from 'vitest';
import { publishTagOf } from './publish-tag.js';

/** @param {string} name @param {string} [tag] */
const pkg = (name, tag) => ({ name, manifest: tag ? { publishConfig: { tag } } : {} });

describe('publishTagOf', () => {
  it('publishes under latest unless a package names a maintenance tag', () => {
    expect(publishTagOf([pkg('@partner-apis/core'), pkg('@partner-apis/liability')])).toBe(
      'latest',
    );
    expect(
      publishTagOf([pkg('@partner-apis/core'), pkg('@partner-apis/liability', 'maintenance-v1')]),
    ).toBe('maintenance-v1');
  });

  it('refuses two maintenance lines in one release', () => {
    expect(() =>
      publishTagOf([
        pkg('@partner-apis/liability', 'maintenance-v1'),
        pkg('@partner-apis/approvals', 'maintenance-v2'),
      ]),
    ).toThrow(
      'Packages state different publishConfig.tag values: maintenance-v1 (@partner-apis/liability); maintenance-v2 (@partner-apis/approvals). Release each maintenance line from its own branch.',
    );
  });
});
