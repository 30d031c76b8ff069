// @ts-check
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { bumpBetween, maxBump, releaseCovers, smallestCoveringRelease } from './bump.js';
import { isCommit, latestReleaseTag, versionAt, writeSpecsAt } from './git-base.js';
import { plannedReleases } from './release-plan.js';
import { diffSpecs } from './spec-diff.js';
import { listPublishablePackages, specsOfPackage } from './workspace.js';

/** @typedef {import('./bump.js').Bump} Bump */
/** @typedef {import('./spec-diff.js').SpecChange} SpecChange */

/**
 * How one spec changed since the base of its package.
 * @typedef {object} SpecResult
 * @property {string} spec the spec's path from the repository root
 * @property {boolean} isNew the base has no such spec: it counts as a minor change
 * @property {Bump} bump
 * @property {SpecChange[]} changes
 */

/**
 * The gate's verdict on one package.
 * @typedef {object} PackageVerdict
 * @property {string} name
 * @property {string | undefined} base the git ref compared with; `undefined` if never released
 * @property {string} baseVersion the package's version at the base; 0.0.0 if never released
 * @property {string} nextVersion its version after the pending changesets
 * @property {SpecResult[]} specs
 * @property {Bump} required what the spec changes need
 * @property {Bump} planned the bump from `baseVersion` to `nextVersion`
 * @property {string | undefined} problem why the planned release is too small, if it is
 */

/**
 * Compares each spec with its version at the base and fails every package whose next version
 * (after the pending changesets) is less far from its version at the base than its specs'
 * changes need.
 *
 * The base of a package is `base` when given, else its latest release tag
 * (`<name>@<version>`, written by `changeset publish`). A package never released counts as
 * released at 0.0.0 without specs: its specs are new, which needs a minor change. Comparing
 * versions rather than reading only the changesets keeps the verdict the same after
 * `changeset version` has turned the changesets into versions. Specs map to packages through
 * each package's `codegen.json`; a base version below 1.0.0 is judged by semver's pre-1.0 rule
 * (a minor release may break, a patch release may add).
 *
 * @example
 * const verdicts = await runSpecDiffGate({ root: '/repo', base: 'origin/main' });
 * const failed = verdicts.filter((v) => v.problem);
 * @param {{ root: string, base?: string }} options
 * @returns {Promise<PackageVerdict[]>} one verdict per publishable package generated from a spec
 */
export async function runSpecDiffGate({ root, base }) {
  if (base !== undefined && !(await isCommit(root, base))) {
    throw new Error(`--base ${JSON.stringify(base)} names no commit`);
  }
  const plan = await plannedReleases(root);
  const scratch = await mkdtemp(join(tmpdir(), 'partner-apis-spec-diff-'));
  try {
    /** @type {Map<string, Promise<string>>} base ref → folder holding its specs/ */
    const checkouts = new Map();
    /** @param {string} ref */
    const checkout = (ref) => {
      let dir = checkouts.get(ref);
      if (!dir) {
        const dest = join(scratch, String(checkouts.size));
        dir = writeSpecsAt(root, ref, dest).then(() => dest);
        checkouts.set(ref, dir);
      }
      return dir;
    };
    /** @type {Map<string, Promise<SpecResult>>} */
    const results = new Map();
    /** @param {string | undefined} ref @param {string} spec from the root */
    const compare = (ref, spec) => {
      const key = `${ref ?? ''}\0${spec}`;
      let result = results.get(key);
      if (!result) {
        result = compareSpec(root, ref === undefined ? undefined : checkout(ref), spec);
        results.set(key, result);
      }
      return result;
    };

    /** @type {PackageVerdict[]} */
    const verdicts = [];
    for (const pkg of await listPublishablePackages(root)) {
      const specs = (await specsOfPackage(pkg.dir)).map((s) =>
        relative(root, s).split('\\').join('/'),
      );
      if (specs.length === 0) continue;
      const tag = base === undefined ? await latestReleaseTag(root, pkg.name) : undefined;
      const ref = base ?? tag;
      const baseVersion =
        (tag ? tag.slice(pkg.name.length + 1) : undefined) ??
        (base === undefined ? undefined : await versionAt(root, base, pkg.relativeDir)) ??
        '0.0.0';
      const nextVersion = plan.get(pkg.name)?.newVersion ?? pkg.version;
      const specResults = await Promise.all(specs.map((spec) => compare(ref, spec)));
      const required = maxBump(specResults.map((r) => r.bump));
      const planned = bumpBetween(baseVersion, nextVersion);
      verdicts.push({
        name: pkg.name,
        base: ref,
        baseVersion,
        nextVersion,
        specs: specResults,
        required,
        planned,
        problem: releaseCovers(planned, baseVersion, required)
          ? undefined
          : tooSmall(pkg.name, baseVersion, nextVersion, required),
      });
    }
    return verdicts;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * @param {string} root
 * @param {Promise<string> | undefined} baseDir folder holding the base's specs/, if any base
 * @param {string} spec from the root
 * @returns {Promise<SpecResult>}
 */
async function compareSpec(root, baseDir, spec) {
  if (!spec.startsWith('specs/')) throw new Error(`${spec}: specs must lie under specs/`);
  const basePath = baseDir === undefined ? undefined : join(await baseDir, spec);
  if (basePath === undefined || !existsSync(basePath)) {
    return { spec, isNew: true, bump: 'minor', changes: [] };
  }
  const diff = await diffSpecs(basePath, join(root, spec));
  return { spec, isNew: false, ...diff };
}

/**
 * @param {string} name
 * @param {string} baseVersion
 * @param {string} nextVersion
 * @param {Bump} required
 */
function tooSmall(name, baseVersion, nextVersion, required) {
  const needed = smallestCoveringRelease(required, baseVersion);
  const preOne =
    needed === required ? '' : ` (below 1.0.0 a ${needed} release may carry ${required} changes)`;
  const next =
    nextVersion === baseVersion
      ? `no pending changeset releases it`
      : `${baseVersion} → ${nextVersion} is a ${bumpBetween(baseVersion, nextVersion)} release`;
  return `${name} needs a ${needed} release from ${baseVersion}${preOne}, but ${next}. Add a changeset with "'${name}': ${needed}" (pnpm changeset).`;
}

/**
 * The gate's verdicts as lines for a terminal: one block per package, the changes that set
 * the bump, and what to do when a package fails.
 *
 * @example
 * console.log(formatVerdicts(await runSpecDiffGate({ root })));
 * @param {PackageVerdict[]} verdicts
 * @returns {string}
 */
export function formatVerdicts(verdicts) {
  const lines = [];
  for (const v of verdicts) {
    const since = v.base ? `since ${v.base}` : 'never released';
    lines.push(
      `${v.problem ? '✗' : '✓'} ${v.name} ${v.baseVersion} → ${v.nextVersion} (${since}): specs need ${v.required}, release is ${v.planned}`,
    );
    for (const spec of v.specs) {
      lines.push(`    ${spec.spec}: ${spec.isNew ? 'new (minor)' : spec.bump}`);
      for (const change of spec.changes.filter(
        (c) => c.impact === spec.bump && spec.bump !== 'patch',
      )) {
        lines.push(`      ${change.impact}: ${change.message}`);
      }
    }
    if (v.problem) lines.push(`    ${v.problem}`);
  }
  return lines.join('\n');
}
