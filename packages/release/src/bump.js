// @ts-check

/**
 * How much a release moves a version, from least to most.
 * @typedef {'none' | 'patch' | 'minor' | 'major'} Bump
 */

/** @type {readonly Bump[]} */
export const BUMPS = ['none', 'patch', 'minor', 'major'];

/**
 * The larger of some bumps; `none` for none.
 *
 * @param {Iterable<Bump>} bumps
 * @returns {Bump}
 */
export function maxBump(bumps) {
  let max = 0;
  for (const bump of bumps) max = Math.max(max, BUMPS.indexOf(bump));
  return BUMPS[max] ?? 'none';
}

/** @param {string} version */
function numbersOf(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`Not a semver version: ${JSON.stringify(version)}`);
  return match.slice(1).map(Number);
}

/**
 * The major number of a semver string.
 *
 * @param {string} version
 * @returns {number}
 */
export function majorOf(version) {
  return numbersOf(version)[0] ?? 0;
}

/**
 * The bump that leads from one version to another: the first of major, minor and patch that
 * differs; `none` when the second is not higher.
 *
 * @param {string} from
 * @param {string} to
 * @returns {Bump}
 */
export function bumpBetween(from, to) {
  const a = numbersOf(from);
  const b = numbersOf(to);
  for (const [index, bump] of /** @type {const} */ (['major', 'minor', 'patch']).entries()) {
    if ((b[index] ?? 0) > (a[index] ?? 0)) return bump;
    if ((b[index] ?? 0) < (a[index] ?? 0)) return 'none';
  }
  return 'none';
}

/**
 * What a release of `releaseType` promises a user of `currentVersion`, in semver terms.
 * Below 1.0.0, semver and npm's caret ranges treat the minor number as the breaking one
 * (`^0.2.0` does not accept `0.3.0`) and the patch number as the one for everything else, so a
 * minor release of a 0.x package may break and a patch release may add.
 *
 * @param {Bump} releaseType
 * @param {string} currentVersion
 * @returns {Bump}
 */
export function promisedBump(releaseType, currentVersion) {
  if (majorOf(currentVersion) > 0) return releaseType;
  if (releaseType === 'minor') return 'major';
  if (releaseType === 'patch') return 'minor';
  return releaseType;
}

/**
 * Whether a release of `releaseType` from `currentVersion` is big enough for a change that
 * needs `required`.
 *
 * @param {Bump} releaseType
 * @param {string} currentVersion
 * @param {Bump} required
 * @returns {boolean}
 */
export function releaseCovers(releaseType, currentVersion, required) {
  return BUMPS.indexOf(promisedBump(releaseType, currentVersion)) >= BUMPS.indexOf(required);
}

/**
 * The smallest changeset bump that covers `required` for a package at `currentVersion`.
 *
 * @param {Bump} required
 * @param {string} currentVersion
 * @returns {Bump}
 */
export function smallestCoveringRelease(required, currentVersion) {
  return BUMPS.find((type) => releaseCovers(type, currentVersion, required)) ?? 'major';
}
