// @ts-check
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { getPackages } from '@manypkg/get-packages';
import { readJobs } from '@partner-apis/codegen';

/**
 * A package of the workspace, as the release tools see it.
 * @typedef {object} WorkspacePackage
 * @property {string} name
 * @property {string} version
 * @property {string} dir absolute
 * @property {string} relativeDir from the repository root, with `/`
 * @property {boolean} publishable `true` unless its package.json says `"private": true`
 * @property {Record<string, any>} manifest the package.json
 */

/**
 * The repository root: the nearest folder upwards that holds `pnpm-workspace.yaml`.
 *
 * @param {string} [from] where to start; the working directory by default
 * @returns {string}
 */
export function findRepoRoot(from = process.cwd()) {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
  return dir;
}

/**
 * Every package of the workspace, sorted by name.
 *
 * @param {string} root
 * @returns {Promise<WorkspacePackage[]>}
 */
export async function listWorkspacePackages(root) {
  const { packages } = await getPackages(root);
  return packages
    .map(({ dir, packageJson }) => {
      /** @type {Record<string, any>} */
      const manifest = packageJson;
      return {
        name: String(manifest.name),
        version: String(manifest.version),
        dir,
        relativeDir: relative(root, dir).split('\\').join('/'),
        publishable: manifest.private !== true,
        manifest,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The packages that get published: every workspace package without `"private": true`.
 *
 * @param {string} root
 * @returns {Promise<WorkspacePackage[]>}
 */
export async function listPublishablePackages(root) {
  return (await listWorkspacePackages(root)).filter((p) => p.publishable);
}

/**
 * The specs a package is generated from, as absolute paths, read from its `codegen.json`.
 * A package without `codegen.json` is generated from no spec.
 *
 * @param {string} packageDir
 * @returns {Promise<string[]>}
 */
export async function specsOfPackage(packageDir) {
  if (!existsSync(join(packageDir, 'codegen.json'))) return [];
  const jobs = await readJobs(packageDir);
  return [...new Set(jobs.map((job) => resolve(packageDir, job.spec)))];
}
