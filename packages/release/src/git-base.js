// @ts-check
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * @param {string} root
 * @param {string[]} args
 * @returns {Promise<string>} stdout
 */
async function git(root, args) {
  const { stdout } = await run('git', args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  return stdout;
}

/**
 * The tag of a package's latest release reachable from HEAD. `changeset publish` tags every
 * release it publishes as `<name>@<version>`; the highest version wins.
 *
 * @param {string} root
 * @param {string} packageName
 * @returns {Promise<string | undefined>} `undefined` when the package was never released
 */
export async function latestReleaseTag(root, packageName) {
  const out = await git(root, [
    'tag',
    '--merged',
    'HEAD',
    '--sort=-version:refname',
    '--list',
    `${packageName}@*`,
  ]);
  return out.split('\n').find((tag) => /@\d+\.\d+\.\d+/.test(tag.slice(packageName.length)));
}

/**
 * The highest version of a package released on any branch, from its release tags
 * `<name>@<version>`; while a maintenance line of an old major is released from its own branch,
 * this is the newest major's.
 *
 * @param {string} root
 * @param {string} packageName
 * @returns {Promise<string | undefined>} `undefined` when the package was never released
 */
export async function highestReleasedVersion(root, packageName) {
  const out = await git(root, ['tag', '--sort=-version:refname', '--list', `${packageName}@*`]);
  const tag = out.split('\n').find((t) => /^\d+\.\d+\.\d+$/.test(t.slice(packageName.length + 1)));
  return tag?.slice(packageName.length + 1);
}

/**
 * The `version` of a package.json as it was at `ref`.
 *
 * @param {string} root
 * @param {string} ref
 * @param {string} packageDir from the root
 * @returns {Promise<string | undefined>} `undefined` when the package did not exist there
 */
export async function versionAt(root, ref, packageDir) {
  const text = await git(root, ['show', `${ref}:./${packageDir}/package.json`]).catch(
    () => undefined,
  );
  if (text === undefined) return undefined;
  const { version } = JSON.parse(text);
  return typeof version === 'string' ? version : undefined;
}

/**
 * Whether `ref` names a commit.
 *
 * @param {string} root
 * @param {string} ref
 * @returns {Promise<boolean>}
 */
export async function isCommit(root, ref) {
  return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/**
 * Writes every file under `specs/` as it was at `ref` into `dest/specs/`, so that a spec of
 * that time can be read together with the files its `$ref`s point to.
 *
 * @param {string} root
 * @param {string} ref
 * @param {string} dest
 * @returns {Promise<string[]>} the files written, relative to `dest`
 */
export async function writeSpecsAt(root, ref, dest) {
  if (!(await isCommit(root, ref))) throw new Error(`Base ${JSON.stringify(ref)} is no commit`);
  const list = await git(root, ['ls-tree', '-r', '-z', '--name-only', ref, '--', 'specs']);
  const files = list.split('\0').filter(Boolean);
  for (const file of files) {
    // `ref:./path` is relative to the working directory, as ls-tree's output is.
    const { stdout } = await run('git', ['show', `${ref}:./${file}`], {
      cwd: root,
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    await mkdir(dirname(join(dest, file)), { recursive: true });
    await writeFile(join(dest, file), stdout);
  }
  return files;
}
