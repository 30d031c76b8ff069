// @ts-check
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { bumpBetween, majorOf, maxBump, releaseCovers, smallestCoveringRelease } from './bump.js';
import {
  highestReleasedVersion,
  isCommit,
  latestReleaseTag,
  versionAt,
  writeSpecsAt,
} from './git-base.js';
import { changelogEntries } from './changelog.js';
import { plannedReleases } from './release-plan.js';
import { diffSpecs } from './spec-diff.js';
import { checkVersionRule } from './version-rule.js';
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
 * @property {{ spec: string, specVersion: string } | undefined} upstream for a service package,
 *   the spec whose `info.version` major its own major mirrors (the version rule)
 * @property {Bump} fix the changeset bump that makes the package pass; `none` when it passes or
 *   when no changeset can (the spec must change)
 * @property {string | undefined} problem why the planned release is wrong, if it is
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
 * The verdict includes the version rule (`checkVersionRule`): a service package's next major
 * must be its spec's `info.version` major. So the gate never passes what the rule fails, and a
 * failing package gets one fix that satisfies both.
 *
 * @param {{ root: string, base?: string }} options
 * @returns {Promise<PackageVerdict[]>} one verdict per publishable package generated from a spec
 */
export async function runSpecDiffGate({ root, base }) {
  if (base !== undefined && !(await isCommit(root, base))) {
    throw new Error(`--base ${JSON.stringify(base)} names no commit`);
  }
  const plan = await plannedReleases(root);
  const rules = new Map((await checkVersionRule(root, plan)).map((r) => [r.name, r]));
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
      const rule = rules.get(pkg.name);
      const upstream = rule ? { spec: rule.spec, specVersion: rule.specVersion } : undefined;
      const judged = judge({ name: pkg.name, baseVersion, nextVersion, required, upstream });
      const unmarked =
        required === 'major' && majorOf(baseVersion) === 0 && !judged.problem
          ? unmarkedBreakingChange(pkg.name, plan.get(pkg.name)?.changesets)
          : undefined;
      const maintenance = maintenanceLineProblem(
        pkg,
        nextVersion,
        await highestReleasedVersion(root, pkg.name),
      );
      verdicts.push({
        name: pkg.name,
        base: ref,
        baseVersion,
        nextVersion,
        specs: specResults,
        required,
        planned,
        upstream,
        ...judged,
        problem: [judged.problem, unmarked, maintenance].filter(Boolean).join(' ') || undefined,
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
 * One verdict from the two rules: the release covers the spec changes (semver, with the pre-1.0
 * rule), and a service package's major is its upstream's (the version rule). Either failing
 * fails the package, with one fix that satisfies both.
 * @param {object} facts
 * @param {string} facts.name
 * @param {string} facts.baseVersion
 * @param {string} facts.nextVersion
 * @param {Bump} facts.required
 * @param {{ spec: string, specVersion: string } | undefined} facts.upstream
 * @returns {{ fix: Bump, problem: string | undefined }}
 */
function judge({ name, baseVersion, nextVersion, required, upstream }) {
  const planned = bumpBetween(baseVersion, nextVersion);
  const coversSpecs = releaseCovers(planned, baseVersion, required);
  const add = (/** @type {Bump} */ bump) =>
    `Add a changeset with "'${name}': ${bump}" (pnpm changeset).`;
  const release =
    nextVersion === baseVersion
      ? 'no pending changeset releases it'
      : `${baseVersion} → ${nextVersion} is a ${planned} release`;
  if (upstream) {
    const specMajor = majorOf(upstream.specVersion);
    const baseMajor = majorOf(baseVersion);
    const at = `${upstream.spec} is at ${upstream.specVersion}`;
    if (specMajor === baseMajor + 1) {
      if (majorOf(nextVersion) === specMajor && coversSpecs)
        return { fix: 'none', problem: undefined };
      return {
        fix: 'major',
        problem: `${name} needs a major release from ${baseVersion}: ${at}, a new major version of the upstream, and the package's major follows it; but ${release}. ${add('major')}`,
      };
    }
    if (specMajor !== baseMajor) {
      return {
        fix: 'none',
        problem: `${name} is at ${baseVersion} but ${at}: a package's major is its upstream's, one major at a time. Set info.version to the upstream's version, or release the majors in between.`,
      };
    }
    if (required === 'major' && specMajor > 0) {
      return {
        fix: 'none',
        problem: `${upstream.spec} breaks users (the changes above) but stays at ${upstream.specVersion}, and ${name}'s major must stay ${specMajor} with it. If the upstream released v${specMajor + 1}, set info.version to ${specMajor + 1}.0.0 and add a changeset with "'${name}': major"; if not, the spec says more than the upstream does: fix the spec.`,
      };
    }
    if (majorOf(nextVersion) !== specMajor) {
      const needed = smallestCoveringRelease(required, baseVersion);
      return {
        fix: needed,
        problem: `${name} would be released as ${nextVersion}, but ${at}: its major version must stay ${specMajor}. Change the pending changesets of ${name}${needed === 'none' ? '' : ` to "'${name}': ${needed}"`}.`,
      };
    }
  }
  if (coversSpecs) return { fix: 'none', problem: undefined };
  const needed = smallestCoveringRelease(required, baseVersion);
  const preOne =
    needed === required ? '' : ` (below 1.0.0 a ${needed} release may carry ${required} changes)`;
  return {
    fix: needed,
    problem: `${name} needs a ${needed} release from ${baseVersion}${preOne}, but ${release}. ${add(needed)}`,
  };
}

/**
 * Below 1.0.0 a breaking change is released by a `minor` changeset, which the CHANGELOG files
 * under Features Added unless the changeset says Breaking Changes; users must still read it as
 * breaking. `undefined` when a pending changeset of the package has a Breaking Changes entry,
 * or when none is pending (after `changeset version` the CHANGELOG has it already).
 * @param {string} name
 * @param {{ id: string, summary: string }[] | undefined} changesets
 * @returns {string | undefined}
 */
function unmarkedBreakingChange(name, changesets) {
  if (!changesets || changesets.length === 0) return undefined;
  const marked = changesets.some((c) =>
    changelogEntries(c, 'minor').some((e) => e.heading === 'Breaking Changes'),
  );
  if (marked) return undefined;
  return `${name}: the spec change breaks users, so its changeset must say so under "### Breaking Changes" (below 1.0.0 the bump is minor, the heading tells the reader).`;
}

/**
 * A release of an old major (a maintenance line, released from its own branch while a newer
 * major is out) must not take npm's `latest` dist-tag from the newer one: its package.json says
 * `publishConfig.tag`, which `pnpm release` passes to `changeset publish`.
 * @param {import('./workspace.js').WorkspacePackage} pkg
 * @param {string} nextVersion
 * @param {string | undefined} highest the highest version released on any branch
 * @returns {string | undefined}
 */
function maintenanceLineProblem(pkg, nextVersion, highest) {
  if (highest === undefined || majorOf(nextVersion) >= majorOf(highest)) return undefined;
  const tag = pkg.manifest.publishConfig?.tag;
  const wanted = `maintenance-v${majorOf(nextVersion)}`;
  if (tag === wanted) return undefined;
  return `${pkg.name} ${nextVersion} is a maintenance release of v${majorOf(nextVersion)} while ${highest} is out: set "publishConfig": { "tag": "${wanted}" } in ${pkg.relativeDir}/package.json, so that it does not take the latest dist-tag.`;
}

/**
 * The one changeset that makes every failing package pass, as the front matter of a file in
 * `.changeset/`; `undefined` when no changeset is missing.
 *
 * @param {PackageVerdict[]} verdicts
 * @returns {string | undefined}
 */
export function changesetToAdd(verdicts) {
  const lines = verdicts
    .filter((v) => v.problem && v.fix !== 'none')
    .map((v) => `'${v.name}': ${v.fix}`);
  return lines.length === 0 ? undefined : ['---', ...lines, '---'].join('\n');
}

/**
 * The gate's verdicts as lines for a terminal: one block per package, the changes that set
 * the bump, and what to do when a package fails.
 *
 * @param {PackageVerdict[]} verdicts
 * @returns {string}
 */
export function formatVerdicts(verdicts) {
  const lines = [];
  for (const v of verdicts) {
    const since = v.base ? `since ${v.base}` : 'never released';
    const upstream = v.upstream ? `, upstream v${majorOf(v.upstream.specVersion)}` : '';
    lines.push(
      `${v.problem ? '✗' : '✓'} ${v.name} ${v.baseVersion} → ${v.nextVersion} (${since}): specs need ${v.required}, release is ${v.planned}${upstream}`,
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
