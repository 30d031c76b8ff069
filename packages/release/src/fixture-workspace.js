// @ts-check
// Test support: small workspaces in a temporary folder, with git history and release tags, for
// the tests of the spec-diff gate and its command.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @param {string} name @param {'base' | 'revision'} side */
const fixture = (name, side) =>
  fileURLToPath(new URL(`../fixtures/${name}/${side}.yaml`, import.meta.url));

/** @type {string[]} */
const repos = [];

/**
 * Deletes every workspace made so far.
 *
 * @example
 * afterAll(removeFixtureWorkspaces);
 * @returns {Promise<void>}
 */
export async function removeFixtureWorkspaces() {
  await Promise.all(repos.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** @param {string} dir @param {string[]} args */
const git = (dir, args) =>
  execFileSync(
    'git',
    ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', ...args],
    { cwd: dir, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );

/**
 * Writes a file, making its folder; anything but a string is written as JSON.
 *
 * @example
 * await writeFixtureFile(join(root, 'packages/orders/package.json'), { name: '@fixture/orders' });
 * @param {string} path
 * @param {unknown} content
 */
export async function writeFixtureFile(path, content) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/**
 * Writes the changesets config of a fixture workspace: the repository's settings, with
 * `changelog` the module that writes CHANGELOG entries, or `false` for none.
 *
 * @example
 * await writeChangesetConfig(root, false);
 * @param {string} root
 * @param {string | false} changelog
 */
export async function writeChangesetConfig(root, changelog) {
  await writeFixtureFile(join(root, '.changeset/config.json'), {
    changelog,
    commit: false,
    access: 'public',
    baseBranch: 'main',
    updateInternalDependencies: 'patch',
    ignore: [],
  });
}

/**
 * Copies a fixture spec, with its `info.version` set to `specVersion`.
 * @param {string} from
 * @param {string} to
 * @param {string} specVersion
 */
async function copySpec(from, to, specVersion) {
  const text = await readFile(from, 'utf8');
  await writeFixtureFile(
    to,
    text.replace(/^(info:\n(?: {2}.*\n)*? {2}version: ).*$/m, `$1${specVersion}`),
  );
}

/**
 * A workspace whose packages are generated from specs/orders, committed with the base version
 * of a fixture spec (tagged as a release of every package unless `released` is false), and with
 * the revision in the working tree. `@fixture/billing`, from an unchanged spec, is always there.
 * The specs state the upstream version the packages mirror (the version rule): the major of
 * `version`, or 0.1.0 below 1.0.0; `revisionSpecVersion` moves the revision to another one.
 *
 * @example
 * const root = await createFixtureWorkspace({ fixture: 'removed-response-field' });
 * @param {object} options
 * @param {string} options.fixture
 * @param {string} [options.version]
 * @param {boolean} [options.released]
 * @param {string[]} [options.packages] names of packages generated from specs/orders
 * @param {string} [options.specVersion] `info.version` of both specs at the base
 * @param {string} [options.revisionSpecVersion] `info.version` of the revision of specs/orders
 * @returns {Promise<string>} the workspace root
 */
export async function createFixtureWorkspace({
  fixture: name,
  version = '1.0.0',
  released = true,
  packages = ['orders'],
  specVersion = version.startsWith('0.') ? '0.1.0' : `${version.split('.')[0]}.0.0`,
  revisionSpecVersion = specVersion,
}) {
  const root = await mkdtemp(join(tmpdir(), 'spec-diff-gate-'));
  repos.push(root);
  await writeFixtureFile(join(root, 'package.json'), {
    name: 'fixture-root',
    version: '0.0.0',
    private: true,
  });
  await writeFixtureFile(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  await writeChangesetConfig(root, false);
  const specsOf = (/** @type {string} */ pkg) => (pkg === 'billing' ? 'billing' : 'orders');
  for (const pkg of [...packages, 'billing']) {
    await writeFixtureFile(join(root, `packages/${pkg}/package.json`), {
      name: `@fixture/${pkg}`,
      version,
    });
    await writeFixtureFile(join(root, `packages/${pkg}/codegen.json`), {
      jobs: [
        { spec: `../../specs/${specsOf(pkg)}/openapi.yaml`, types: 'src/generated/openapi.ts' },
      ],
    });
  }
  await copySpec(fixture(name, 'base'), join(root, 'specs/orders/openapi.yaml'), specVersion);
  await copySpec(
    fixture('description-only', 'base'),
    join(root, 'specs/billing/openapi.yaml'),
    specVersion,
  );
  git(root, ['init', '-q', '-b', 'main']);
  git(root, ['add', '.']);
  git(root, ['commit', '-q', '--no-gpg-sign', '-m', 'base']);
  if (released) {
    for (const pkg of [...packages, 'billing']) git(root, ['tag', `@fixture/${pkg}@${version}`]);
  }
  await copySpec(
    fixture(name, 'revision'),
    join(root, 'specs/orders/openapi.yaml'),
    revisionSpecVersion,
  );
  return root;
}

/**
 * Writes the pending changeset of a fixture workspace, replacing any earlier one.
 *
 * @example
 * await addChangeset(root, { orders: 'major' });
 * @param {string} root
 * @param {Record<string, string>} bumps package folder → bump
 */
export async function addChangeset(root, bumps) {
  const lines = Object.entries(bumps).map(([pkg, bump]) => `'@fixture/${pkg}': ${bump}`);
  await writeFixtureFile(
    join(root, '.changeset/spec-change.md'),
    `---\n${lines.join('\n')}\n---\n\nA change.\n`,
  );
}

/**
 * Tags a release on a branch of its own, as the release of a newer major is while a fixture
 * workspace's branch maintains the old one.
 *
 * @example
 * await tagOnOtherBranch(root, '@fixture/orders@2.0.0');
 * @param {string} root
 * @param {string} tag
 */
export async function tagOnOtherBranch(root, tag) {
  const changed = git(root, ['status', '--porcelain']).length > 0;
  if (changed) git(root, ['stash', '--include-untracked', '-q']);
  git(root, ['checkout', '-q', '-b', `release-${tag.replace(/[^a-z0-9.]/gi, '-')}`]);
  git(root, ['commit', '-q', '--no-gpg-sign', '--allow-empty', '-m', tag]);
  git(root, ['tag', tag]);
  git(root, ['checkout', '-q', 'main']);
  if (changed) git(root, ['stash', 'pop', '-q']);
}
