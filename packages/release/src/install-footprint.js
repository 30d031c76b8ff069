// @ts-check
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What an npm install put into a project.
 * @typedef {object} InstallFootprint
 * @property {string[]} packages the installed packages, by their path under node_modules
 * @property {number} bytes the size of all files in node_modules
 */

/**
 * Counts the packages npm installed in a project (from `node_modules/.package-lock.json`, which
 * npm writes on every install) and adds up the size of `node_modules`.
 *
 * @param {string} projectDir
 * @returns {Promise<InstallFootprint>}
 */
export async function installFootprint(projectDir) {
  const modules = join(projectDir, 'node_modules');
  const lock = JSON.parse(await readFile(join(modules, '.package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages ?? {})
    .filter((path) => path.startsWith('node_modules/'))
    .map((path) => path.slice('node_modules/'.length))
    .sort();
  let bytes = 0;
  for (const entry of await readdir(modules, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { packages, bytes };
}
