// @ts-check
import getReleasePlan from '@changesets/get-release-plan';

/** @typedef {import('./bump.js').Bump} Bump */

/**
 * What the pending changesets will release of one package.
 * @typedef {object} PlannedRelease
 * @property {Bump} type
 * @property {string} oldVersion
 * @property {string} newVersion
 * @property {{ id: string, summary: string }[]} changesets the pending changesets that name the
 *   package itself (not those that only release a dependency)
 */

/**
 * The releases that `changeset version` would make from the pending changesets in
 * `.changeset/`, by package name, including the patch releases of dependents.
 *
 * @param {string} root
 * @returns {Promise<Map<string, PlannedRelease>>}
 */
export async function plannedReleases(root) {
  const { releases, changesets } = await getReleasePlan(root);
  return new Map(
    releases.map((r) => [
      r.name,
      {
        type: r.type,
        oldVersion: r.oldVersion,
        newVersion: r.newVersion,
        changesets: changesets
          .filter((c) => c.releases.some((release) => release.name === r.name))
          .map((c) => ({ id: c.id, summary: c.summary })),
      },
    ]),
  );
}
