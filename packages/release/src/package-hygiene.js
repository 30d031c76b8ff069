// @ts-check
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { runNpm } from './npm-cli.js';

/** @typedef {import('./workspace.js').WorkspacePackage} WorkspacePackage */

const run = promisify(execFile);

/**
 * A package as `pnpm pack` wrote it: `workspace:` and `catalog:` ranges replaced by versions,
 * `publishConfig` applied, only the files that `files` lets in.
 * @typedef {object} PackedPackage
 * @property {string} tarball absolute path of the `.tgz`
 * @property {string[]} files the paths in the tarball, relative to the package
 */

/**
 * Packs a package with `pnpm pack`, as `pnpm publish` would.
 *
 * @param {string} packageDir
 * @param {string} destination folder for the tarball
 * @returns {Promise<PackedPackage>}
 */
export async function packPackage(packageDir, destination) {
  const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', destination], {
    cwd: packageDir,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  /** @type {{ filename: string, files: { path: string }[] }} */
  const result = JSON.parse(stdout);
  return { tarball: result.filename, files: result.files.map((f) => f.path).sort() };
}

/**
 * The files `npm pack` would put in a package's tarball, as `npm pack --dry-run --json` lists
 * them: what npm itself publishes, whatever pnpm does.
 *
 * @param {string} packageDir
 * @param {NodeJS.ProcessEnv} env an npm environment (see `npmEnvironment`)
 * @returns {Promise<string[]>} paths relative to the package, sorted
 */
export async function npmPackFiles(packageDir, env) {
  const stdout = await runNpm(['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: packageDir,
    env,
  });
  /** @type {{ files: { path: string }[] }[]} */
  const [result] = JSON.parse(stdout);
  return (result?.files ?? []).map((f) => f.path).sort();
}

/**
 * What a user needs in a published package: the build, the manifest, the notices, the
 * `<subpath>/package.json` of each subpath export, for resolvers that ignore `exports`, and
 * the command line's list of services.
 */
const SHIPPED =
  /^(?:package\.json|README\.md|LICENSE|CHANGELOG\.md|services\.json|dist\/.+|[\w-]+\/package\.json)$/;
const NOT_SHIPPED = /\.test(?:-d)?\.|\.tsbuildinfo$/;

/**
 * The files of a packed package that a user does not need: anything but `dist/`, the
 * package.json files, README, LICENSE and CHANGELOG, and tests or build state inside `dist/`.
 *
 * @param {string[]} files
 * @returns {string[]}
 */
export function unneededFiles(files) {
  return files.filter((file) => !SHIPPED.test(file) || NOT_SHIPPED.test(file));
}

/**
 * Checks the package.json shape every public package shares (see CONTRIBUTING.md): ESM, no side
 * effects, `exports` with `types` first, `files`, `engines.node` as the repository's,
 * `repository.directory` naming its folder, a license, and a LICENSE file in the tarball.
 *
 * @param {WorkspacePackage} pkg
 * @param {string[]} files the packed files
 * @param {string} nodeRange the root package.json's `engines.node`
 * @returns {string[]} one sentence per problem, naming the field and the fix
 */
export function manifestProblems(pkg, files, nodeRange) {
  const m = pkg.manifest;
  const problems = [];
  if (m.type !== 'module') problems.push('set "type": "module"');
  if (m.sideEffects !== false) problems.push('set "sideEffects": false');
  if (!Array.isArray(m.files) || m.files.length === 0)
    problems.push('list the shipped files in "files"');
  if (m.engines?.node !== nodeRange) problems.push(`set "engines": { "node": "${nodeRange}" }`);
  if (m.repository?.directory !== pkg.relativeDir || typeof m.repository?.url !== 'string') {
    problems.push(`set "repository" with "url" and "directory": "${pkg.relativeDir}"`);
  }
  if (typeof m.license !== 'string') problems.push('set "license"');
  if (!files.includes('LICENSE')) problems.push('add a LICENSE file beside package.json');
  if (typeof m.exports !== 'object' || m.exports === null || !('.' in m.exports)) {
    problems.push('set "exports" with a "." entry');
  } else {
    for (const path of conditionsWithoutTypesFirst(m.exports, 'exports')) {
      problems.push(`put "types" first in ${path}`);
    }
  }
  return problems;
}

/**
 * @param {unknown} value
 * @param {string} path
 * @returns {string[]} the condition objects whose first key is not `types`
 */
function conditionsWithoutTypesFirst(value, path) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const keys = Object.keys(value);
  const isConditions = keys.length > 0 && !keys[0]?.startsWith('.');
  const own = isConditions && keys[0] !== 'types' ? [path] : [];
  return [
    ...own,
    ...keys.flatMap((key) =>
      conditionsWithoutTypesFirst(
        /** @type {Record<string, unknown>} */ (value)[key],
        `${path}[${JSON.stringify(key)}]`,
      ),
    ),
  ];
}

/**
 * Runs publint on a packed tarball, strict and down to suggestions.
 *
 * @param {string} tarball
 * @returns {Promise<string[]>} one formatted line per message
 */
export async function publintMessages(tarball) {
  const data = await readFile(tarball);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({
    pack: { tarball: /** @type {ArrayBuffer} */ (buffer) },
    level: 'suggestion',
    strict: true,
  });
  return messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false })}`);
}

/**
 * Resolution modes that do not apply to an ESM-only package (the `esm-only` profile of
 * `attw`): CommonJS `require` and the pre-`exports` `node10` resolution.
 */
const NOT_APPLICABLE = new Set(['node10', 'node16-cjs']);

/**
 * Runs Are the types wrong? on a packed tarball, for ESM-only packages.
 *
 * @param {string} tarball
 * @returns {Promise<string[]>} one line per problem
 */
export async function typeProblems(tarball) {
  const result = await checkPackage(createPackageFromTarballData(await readFile(tarball)));
  if (!result.types) return ['the package ships no types'];
  return result.problems
    .filter((p) => !('resolutionKind' in p) || !NOT_APPLICABLE.has(p.resolutionKind))
    .map((p) => {
      const where = 'entrypoint' in p ? ` at ${p.entrypoint}` : '';
      const mode = 'resolutionKind' in p ? ` (${p.resolutionKind})` : '';
      return `${p.kind}${where}${mode}`;
    });
}
