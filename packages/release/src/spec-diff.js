// @ts-check
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { majorOf, maxBump } from './bump.js';
import { bundleSpec, componentsAsApi, hasOperations } from './component-library.js';

/** @typedef {import('./bump.js').Bump} Bump */

/**
 * One change between two versions of a spec.
 * @typedef {object} SpecChange
 * @property {Exclude<Bump, 'none'>} impact the bump the change needs
 * @property {string} pointer JSON pointer into the revision (or the base, for a removal)
 * @property {string[]} rules the diff rules that rated it; empty for an unrated change
 * @property {string} message what changed, in one line
 */

/**
 * The result of comparing two versions of a spec.
 * @typedef {object} SpecDiff
 * @property {Bump} bump the largest impact of all changes; `none` when nothing changed
 * @property {SpecChange[]} changes
 */

const run = promisify(execFile);
const redoclyBin = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** The diff rules, with the repository's own choices; see the file for them. */
export const DIFF_RULES_CONFIG = fileURLToPath(new URL('../redocly-diff.yaml', import.meta.url));

/** Redocly CLI reads these; without them it may print notices or send usage data. */
const quietRedocly = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
};

/**
 * Compares two versions of an OpenAPI document with `redocly diff` and rates each change by
 * the semver bump it needs. `$ref`s are followed, also into other files, so a change in
 * `specs/common/` shows in every spec that uses the changed component. A spec without
 * operations is a component library: it is compared as an API that uses each component in both
 * directions (see `componentsAsApi`). A new major number in `info.version` is a major change
 * whatever else changed: it is how the spec says that the upstream released a new major
 * version, and the package's major follows it (the version rule).
 *
 * @param {string} basePath the older version
 * @param {string} revisionPath the newer version
 * @returns {Promise<SpecDiff>}
 */
export async function diffSpecs(basePath, revisionPath) {
  const [base, revision] = await Promise.all([bundleSpec(basePath), bundleSpec(revisionPath)]);
  // Nothing to rate when both read the same once every $ref is pulled in; redocly diff is the
  // slow part of the gate.
  if (JSON.stringify(base) === JSON.stringify(revision)) return { bump: 'none', changes: [] };
  const majorChange = infoVersionMajorChange(base, revision);
  if (hasOperations(base) || hasOperations(revision)) {
    return withChange(await runRedoclyDiff(basePath, revisionPath), majorChange);
  }
  const scratch = await mkdtemp(join(tmpdir(), 'partner-apis-components-'));
  try {
    const baseAsApi = join(scratch, 'base.json');
    const revisionAsApi = join(scratch, 'revision.json');
    await writeFile(baseAsApi, JSON.stringify(componentsAsApi(base), null, 1));
    await writeFile(revisionAsApi, JSON.stringify(componentsAsApi(revision), null, 1));
    return withChange(await runRedoclyDiff(baseAsApi, revisionAsApi), majorChange);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The change of `info.version` to another major number, if it is one.
 * @param {Record<string, any>} base
 * @param {Record<string, any>} revision
 * @returns {SpecChange | undefined}
 */
function infoVersionMajorChange(base, revision) {
  const from = String(base.info?.version);
  const to = String(revision.info?.version);
  const major = (/** @type {string} */ version) => {
    try {
      return majorOf(version);
    } catch {
      return undefined;
    }
  };
  if (major(from) === undefined || major(to) === undefined || major(from) === major(to)) {
    return undefined;
  }
  return {
    impact: 'major',
    pointer: '#/info/version',
    rules: ['info-version-major'],
    message: `info.version went from ${from} to ${to}: a new major version of the upstream (info-version-major)`,
  };
}

/**
 * @param {SpecDiff} diff
 * @param {SpecChange | undefined} change
 * @returns {SpecDiff}
 */
function withChange(diff, change) {
  if (!change) return diff;
  const changes = [change, ...diff.changes.filter((c) => c.pointer !== change.pointer)];
  return { bump: maxBump(changes.map((c) => c.impact)), changes };
}

/**
 * @param {string} basePath
 * @param {string} revisionPath
 * @returns {Promise<SpecDiff>}
 */
async function runRedoclyDiff(basePath, revisionPath) {
  const args = [redoclyBin, 'diff', basePath, revisionPath, '--config', DIFF_RULES_CONFIG];
  args.push('--format', 'json', '--fail-on', 'none', '--lint-config', 'off');
  const { stdout } = await run(process.execPath, args, {
    env: { ...process.env, ...quietRedocly },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  }).catch((/** @type {Error & { stderr?: string }} */ error) => {
    throw new Error(`redocly diff ${basePath} ${revisionPath} failed: ${error.stderr ?? error}`);
  });
  return summariseDiffReport(JSON.parse(stdout));
}

/**
 * Turns the JSON report of `redocly diff --format json` into a {@link SpecDiff}.
 *
 * @param {{ changes?: unknown }} report
 * @returns {SpecDiff}
 */
export function summariseDiffReport(report) {
  if (!Array.isArray(report.changes)) throw new Error('redocly diff report has no "changes" list');
  /** @type {SpecChange[]} */
  const changes = report.changes.map((/** @type {RedoclyChange} */ change) => {
    const verdicts = change.verdicts ?? [];
    const what = change.property ? `${change.kind} ${change.property}` : change.kind;
    return {
      impact: change.impact,
      pointer: change.path,
      rules: verdicts.map((v) => v.ruleId),
      message:
        verdicts.length > 0
          ? verdicts.map((v) => `${v.message} (${v.ruleId})`).join('; ')
          : `${what} at ${change.path}`,
    };
  });
  return { bump: maxBump(changes.map((c) => c.impact)), changes };
}

/**
 * The part of a change in Redocly's JSON report that we read.
 * @typedef {object} RedoclyChange
 * @property {string} path
 * @property {string} kind added, removed or modified
 * @property {string} [property]
 * @property {Exclude<Bump, 'none'>} impact
 * @property {{ ruleId: string, message: string }[]} [verdicts]
 */
