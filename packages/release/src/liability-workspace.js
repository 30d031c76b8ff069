// @ts-check
// Test support for the rehearsal of a new upstream major: a workspace in a temporary folder
// with @partner-apis/liability as this repository has it (sources, build, specs), released as
// 1.0.0 in its git history, and the v2 of the liability spec that the upstream has not
// published (so it lives here, not in specs/).
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml } from '@redocly/openapi-core';
import { writeChangesetConfig, writeFixtureFile } from './fixture-workspace.js';

const changelogModule = fileURLToPath(new URL('./changelog.js', import.meta.url));

/**
 * Runs git in a fixture workspace, as a fixture author, without the machine's git settings.
 *
 * @param {string} dir
 * @param {string[]} args
 * @returns {string} stdout
 */
export function fixtureGit(dir, args) {
  return execFileSync(
    'git',
    ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', ...args],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );
}

/**
 * The package.json of a package as it is published: `workspace:` ranges as the caret range of
 * the workspace package's version, `catalog:` as the catalog's range, no devDependencies.
 * @param {Record<string, any>} manifest
 * @param {Record<string, string>} versions workspace package versions by name
 * @param {Record<string, string>} catalog
 * @param {string} version
 */
function publishedManifest(manifest, versions, catalog, version) {
  /** @type {Record<string, string>} */
  const dependencies = {};
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:')) dependencies[name] = `^${versions[name]}`;
    else if (range === 'catalog:') dependencies[name] = String(catalog[name]);
    else dependencies[name] = range;
  }
  /** @type {Record<string, unknown>} */
  const published = { ...manifest, version, dependencies };
  delete published.devDependencies;
  delete published.scripts;
  return published;
}

/**
 * A git workspace holding `packages/liability` of `repoRoot` (built, at `version`, tagged
 * `@partner-apis/liability@<version>`), `specs/liability` and `specs/common`, and a changesets
 * config that writes CHANGELOGs as `pnpm version-packages` does. Its node_modules are the
 * repository's, so `partner-apis-codegen` and `tsc` run in it as they do here.
 *
 * @param {string} repoRoot
 * @param {string} dir an empty folder
 * @param {string} version the version of the release the history starts with
 * @returns {Promise<string>} `dir`
 */
export async function createLiabilityWorkspace(repoRoot, dir, version) {
  const source = join(repoRoot, 'packages/liability');
  const target = join(dir, 'packages/liability');
  const workspace = /** @type {{ catalog: Record<string, string> }} */ (
    parseYaml(await readFile(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8'))
  );
  /** @type {Record<string, string>} */
  const versions = {};
  for (const name of ['errors', 'auth', 'core']) {
    const manifest = JSON.parse(
      await readFile(join(repoRoot, `packages/${name}/package.json`), 'utf8'),
    );
    versions[manifest.name] = manifest.version;
  }

  await writeFixtureFile(join(dir, 'package.json'), {
    name: 'liability-rehearsal',
    version: '0.0.0',
    private: true,
    type: 'module',
  });
  await writeFixtureFile(join(dir, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  await writeFixtureFile(join(dir, '.gitignore'), 'node_modules\n');
  await writeChangesetConfig(dir, changelogModule);
  await cp(join(repoRoot, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  for (const spec of ['common', 'liability']) {
    await cp(join(repoRoot, 'specs', spec), join(dir, 'specs', spec), { recursive: true });
  }
  await mkdir(target, { recursive: true });
  for (const entry of [
    'codegen.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'src',
    'dist',
  ]) {
    await cp(join(source, entry), join(target, entry), { recursive: true });
  }
  const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8'));
  await writeFixtureFile(
    join(target, 'package.json'),
    publishedManifest(manifest, versions, workspace.catalog, version),
  );
  await symlink(join(source, 'node_modules'), join(target, 'node_modules'), 'dir');

  fixtureGit(dir, ['init', '-q', '-b', 'main']);
  fixtureGit(dir, ['add', '.']);
  fixtureGit(dir, ['commit', '-q', '--no-gpg-sign', '-m', `Release liability ${version}`]);
  fixtureGit(dir, ['tag', `@partner-apis/liability@${version}`]);
  return dir;
}

/**
 * Writes the fixture v2 of the liability spec over `specs/liability/openapi.yaml`: the v1 spec
 * as it is, at `info.version` 2.0.0 with `/v2` server addresses, and one change of the kind the
 * upstream's versioning rules say needs a new major version: a new mandatory attribute (a
 * seller's `registrationNumber`). Derived from v1, it follows every change of the real spec.
 *
 * @param {string} root a workspace from `createLiabilityWorkspace`
 * @returns {Promise<string>} the spec's path
 */
export async function writeLiabilityV2Spec(root) {
  const path = join(root, 'specs/liability/openapi.yaml');
  const spec = /** @type {Record<string, any>} */ (parseYaml(await readFile(path, 'utf8')));
  spec.info.version = '2.0.0';
  spec.servers = JSON.parse(JSON.stringify(spec.servers).replaceAll('/v1', '/v2'));
  const seller = spec.components.schemas.Seller;
  seller.required = [...seller.required, 'registrationNumber'];
  // JSON is YAML: the spec keeps its name, and its $refs into specs/common stay as they are.
  await writeFile(path, `${JSON.stringify(spec, null, 2)}\n`);
  return path;
}
