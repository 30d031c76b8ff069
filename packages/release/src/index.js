// @ts-check
export { BUMPS, bumpBetween, majorOf, maxBump, promisedBump, releaseCovers } from './bump.js';
export { componentsAsApi, hasOperations } from './component-library.js';
export { highestReleasedVersion, latestReleaseTag, versionAt, writeSpecsAt } from './git-base.js';
export { plannedReleases } from './release-plan.js';
export { diffSpecs, summariseDiffReport, DIFF_RULES_CONFIG } from './spec-diff.js';
export { changesetToAdd, formatVerdicts, runSpecDiffGate } from './spec-diff-gate.js';
export { publishTagOf } from './publish-tag.js';
export {
  CHANGELOG_HEADINGS,
  changelogEntries,
  getDependencyReleaseLine,
  getReleaseLine,
  regroupLatestRelease,
} from './changelog.js';
export {
  findRepoRoot,
  listPublishablePackages,
  listWorkspacePackages,
  specsOfPackage,
} from './workspace.js';
export { checkVersionRule, listServiceSpecs, versionRuleProblem } from './version-rule.js';
export { missingIgnores, readChangesetConfig } from './changeset-config.js';
export {
  manifestProblems,
  npmPackFiles,
  packPackage,
  publintMessages,
  typeProblems,
  unneededFiles,
} from './package-hygiene.js';
export { startLocalRegistry } from './local-registry.js';
export { installFootprint } from './install-footprint.js';
export { npmEnvironment, runNpm } from './npm-cli.js';
export { waitForLine } from './child-output.js';
