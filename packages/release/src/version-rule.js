// @ts-check
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseYaml } from '@redocly/openapi-core';
import { majorOf } from './bump.js';
import { hasOperations } from './component-library.js';
import { plannedReleases } from './release-plan.js';
import { listPublishablePackages, specsOfPackage } from './workspace.js';

/**
 * A spec that describes an upstream API (it has operations), with the version it states.
 * @typedef {object} ServiceSpec
 * @property {string} api the folder name under specs/, which is also the package's folder
 * @property {string} spec the spec's path from the repository root
 * @property {string} version its `info.version`; 0.x where the upstream publishes none
 */

/**
 * The version rule applied to one service package.
 * @typedef {object} VersionRuleResult
 * @property {string} name the package
 * @property {string} spec
 * @property {string} specVersion
 * @property {string} nextVersion the package's version after the pending changesets
 * @property {string | undefined} problem why the rule is broken, if it is
 */

/**
 * Every spec under `specs/` that has operations, sorted by folder. `specs/common/` has none and
 * is left out.
 *
 * @param {string} root
 * @returns {Promise<ServiceSpec[]>}
 */
export async function listServiceSpecs(root) {
  const folders = await readdir(join(root, 'specs'), { withFileTypes: true });
  /** @type {ServiceSpec[]} */
  const specs = [];
  for (const folder of folders
    .filter((f) => f.isDirectory())
    .map((f) => f.name)
    .sort()) {
    const spec = `specs/${folder}/openapi.yaml`;
    if (!existsSync(join(root, spec))) continue;
    const document = /** @type {Record<string, any>} */ (
      parseYaml(await readFile(join(root, spec), 'utf8'))
    );
    if (!hasOperations(document)) continue;
    specs.push({ api: folder, spec, version: String(document.info?.version) });
  }
  return specs;
}

/**
 * Checks the version rule: the major version of a service package (`packages/<api>`, generated
 * from `specs/<api>/openapi.yaml`) equals the major of its spec's `info.version`, once the
 * pending changesets are applied. Upstreams that publish a version have it in the spec (the
 * approvals and liability APIs are at v1); the others state 0.x, so their packages stay below
 * 1.0.0. A spec whose package does not exist yet is left out. `pnpm spec:diff` calls this same
 * function and fails on every problem it reports, so the gate and this rule cannot disagree.
 *
 * @param {string} root
 * @param {Map<string, import('./release-plan.js').PlannedRelease>} [plan] the pending releases,
 *   when the caller has read them already
 * @returns {Promise<VersionRuleResult[]>}
 */
export async function checkVersionRule(root, plan) {
  const packages = await listPublishablePackages(root);
  const releases = plan ?? (await plannedReleases(root));
  /** @type {VersionRuleResult[]} */
  const results = [];
  for (const { api, spec, version } of await listServiceSpecs(root)) {
    const pkg = packages.find((p) => p.relativeDir === `packages/${api}`);
    if (!pkg || !(await specsOfPackage(pkg.dir)).includes(join(root, spec))) continue;
    const nextVersion = releases.get(pkg.name)?.newVersion ?? pkg.version;
    results.push({
      name: pkg.name,
      spec,
      specVersion: version,
      nextVersion,
      problem: versionRuleProblem(pkg.name, pkg.version, nextVersion, spec, version),
    });
  }
  return results;
}

/**
 * Why a package's next version breaks the version rule, or `undefined` when it keeps it.
 *
 * @param {string} name
 * @param {string} version the package's version now
 * @param {string} nextVersion after the pending changesets
 * @param {string} spec
 * @param {string} specVersion the spec's `info.version`
 * @returns {string | undefined}
 */
export function versionRuleProblem(name, version, nextVersion, spec, specVersion) {
  const specMajor = majorOf(specVersion);
  if (majorOf(nextVersion) === specMajor) return undefined;
  return (
    `${name} would be released as ${nextVersion}, but ${spec} is at ${specVersion}: ` +
    `its major version must be ${specMajor}. ${fixFor(name, version, specMajor)}`
  );
}
/**
 * @param {string} name
 * @param {string} version
 * @param {number} specMajor
 */
function fixFor(name, version, specMajor) {
  if (majorOf(version) < specMajor && specMajor === majorOf(version) + 1) {
    return `Add a changeset with "'${name}': major".`;
  }
  return `Change the pending changesets of ${name}, or the spec's info.version if the upstream released a new major version.`;
}
