// @ts-check
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { formatVerdicts, runSpecDiffGate } from './spec-diff-gate.js';

/** @param {string} name @param {'base' | 'revision'} side */
const fixture = (name, side) =>
  fileURLToPath(new URL(`../fixtures/${name}/${side}.yaml`, import.meta.url));

/** @type {string[]} */
const repos = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** @param {string} dir @param {string[]} args */
const git = (dir, args) =>
  execFileSync(
    'git',
    ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', ...args],
    { cwd: dir, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );

/** @param {string} path @param {unknown} content */
async function write(path, content) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/**
 * A workspace whose packages are generated from specs/orders, committed with the base version
 * of a fixture spec (tagged as a release of every package unless `released` is false).
 * @param {object} options
 * @param {string} options.fixture
 * @param {string} [options.version]
 * @param {boolean} [options.released]
 * @param {string[]} [options.packages] names of packages generated from specs/orders
 */
async function fixtureRepo({
  fixture: name,
  version = '1.0.0',
  released = true,
  packages = ['orders'],
}) {
  const root = await mkdtemp(join(tmpdir(), 'spec-diff-gate-'));
  repos.push(root);
  await write(join(root, 'package.json'), {
    name: 'fixture-root',
    version: '0.0.0',
    private: true,
  });
  await write(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  await write(join(root, '.changeset/config.json'), {
    changelog: false,
    commit: false,
    access: 'public',
    baseBranch: 'main',
    updateInternalDependencies: 'patch',
    ignore: [],
  });
  const specsOf = (/** @type {string} */ pkg) => (pkg === 'billing' ? 'billing' : 'orders');
  for (const pkg of [...packages, 'billing']) {
    await write(join(root, `packages/${pkg}/package.json`), { name: `@fixture/${pkg}`, version });
    await write(join(root, `packages/${pkg}/codegen.json`), {
      jobs: [
        { spec: `../../specs/${specsOf(pkg)}/openapi.yaml`, types: 'src/generated/openapi.ts' },
      ],
    });
  }
  await cp(fixture(name, 'base'), join(root, 'specs/orders/openapi.yaml'));
  await cp(fixture('description-only', 'base'), join(root, 'specs/billing/openapi.yaml'));
  git(root, ['init', '-q', '-b', 'main']);
  git(root, ['add', '.']);
  git(root, ['commit', '-q', '--no-gpg-sign', '-m', 'base']);
  if (released) {
    for (const pkg of [...packages, 'billing']) git(root, ['tag', `@fixture/${pkg}@${version}`]);
  }
  await cp(fixture(name, 'revision'), join(root, 'specs/orders/openapi.yaml'));
  return root;
}

/** @param {string} root @param {Record<string, string>} bumps package folder → bump */
async function addChangeset(root, bumps) {
  const lines = Object.entries(bumps).map(([pkg, bump]) => `'@fixture/${pkg}': ${bump}`);
  await write(
    join(root, '.changeset/spec-change.md'),
    `---\n${lines.join('\n')}\n---\n\nA change.\n`,
  );
}

/** @param {string} root @param {string} [base] */
async function verdictOf(root, base) {
  const verdicts = await runSpecDiffGate({ root, base });
  const orders = verdicts.find((v) => v.name === '@fixture/orders');
  if (!orders) throw new Error(formatVerdicts(verdicts));
  return orders;
}

describe('runSpecDiffGate', () => {
  describe.each(['removed-response-field', 'parameter-made-required', 'new-response-enum-value'])(
    'on the breaking fixture %s',
    (name) => {
      it('fails when the changeset says minor', async () => {
        const root = await fixtureRepo({ fixture: name });
        await addChangeset(root, { orders: 'minor' });
        const verdict = await verdictOf(root);
        expect(verdict.required).toBe('major');
        expect(verdict.problem).toMatch(/@fixture\/orders needs a major release/);
        expect(verdict.problem).toContain(`"'@fixture/orders': major"`);
      });

      it('passes when the changeset says major', async () => {
        const root = await fixtureRepo({ fixture: name });
        await addChangeset(root, { orders: 'major' });
        const verdict = await verdictOf(root);
        expect(verdict.base).toBe('@fixture/orders@1.0.0');
        expect(verdict.problem).toBeUndefined();
      });
    },
  );

  it('needs a minor release for a new optional parameter', async () => {
    const root = await fixtureRepo({ fixture: 'new-optional-parameter' });
    await addChangeset(root, { orders: 'patch' });
    expect((await verdictOf(root)).problem).toMatch(/needs a minor release/);
    await addChangeset(root, { orders: 'minor' });
    expect((await verdictOf(root)).problem).toBeUndefined();
  });

  it('needs a patch release for a description-only change, and nothing more', async () => {
    const root = await fixtureRepo({ fixture: 'description-only' });
    expect((await verdictOf(root)).problem).toMatch(/no pending changeset releases it/);
    await addChangeset(root, { orders: 'patch' });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ required: 'patch', planned: 'patch', problem: undefined });
    expect(verdict.nextVersion).toBe('1.0.1');
  });

  it('lets a minor release of a 0.x package carry a breaking change', async () => {
    const root = await fixtureRepo({ fixture: 'removed-response-field', version: '0.3.0' });
    await addChangeset(root, { orders: 'patch' });
    expect((await verdictOf(root)).problem).toMatch(
      /needs a minor release from 0\.3\.0 \(below 1\.0\.0 a minor release may carry major changes\)/,
    );
    await addChangeset(root, { orders: 'minor' });
    expect((await verdictOf(root)).problem).toBeUndefined();
  });

  it('asks exactly the packages generated from the changed spec for a release', async () => {
    const root = await fixtureRepo({
      fixture: 'removed-response-field',
      packages: ['orders', 'orders-sandbox'],
    });
    await addChangeset(root, { orders: 'major' });
    const verdicts = await runSpecDiffGate({ root });
    const byName = Object.fromEntries(verdicts.map((v) => [v.name, v]));
    expect(byName['@fixture/orders']?.problem).toBeUndefined();
    expect(byName['@fixture/orders-sandbox']?.problem).toMatch(/needs a major release/);
    expect(byName['@fixture/billing']).toMatchObject({ required: 'none', problem: undefined });
  });

  it('counts a never released package as released at 0.0.0 without its specs', async () => {
    const root = await fixtureRepo({
      fixture: 'description-only',
      version: '0.0.0',
      released: false,
    });
    const verdict = await verdictOf(root);
    expect(verdict).toMatchObject({ base: undefined, baseVersion: '0.0.0', required: 'minor' });
    expect(verdict.specs).toEqual([expect.objectContaining({ isNew: true, bump: 'minor' })]);
    expect(verdict.problem).toMatch(/needs a patch release from 0\.0\.0 \(below 1\.0\.0/);
    await addChangeset(root, { orders: 'minor' });
    expect(await verdictOf(root)).toMatchObject({ nextVersion: '0.1.0', problem: undefined });
  });

  it('judges the same after `changeset version` turned the changesets into versions', async () => {
    const root = await fixtureRepo({ fixture: 'removed-response-field' });
    await write(join(root, 'packages/orders/package.json'), {
      name: '@fixture/orders',
      version: '1.1.0',
    });
    expect((await verdictOf(root)).problem).toMatch(/1\.0\.0 → 1\.1\.0 is a minor release/);
    await write(join(root, 'packages/orders/package.json'), {
      name: '@fixture/orders',
      version: '2.0.0',
    });
    expect(await verdictOf(root)).toMatchObject({ planned: 'major', problem: undefined });
  });

  it('compares with --base when given', async () => {
    const root = await fixtureRepo({ fixture: 'parameter-made-required', released: false });
    await addChangeset(root, { orders: 'minor' });
    const verdict = await verdictOf(root, 'main');
    expect(verdict).toMatchObject({ base: 'main', baseVersion: '1.0.0', required: 'major' });
    expect(verdict.problem).toMatch(/needs a major release/);
  });

  it('refuses a base that names no commit', async () => {
    const root = await fixtureRepo({ fixture: 'description-only' });
    await expect(runSpecDiffGate({ root, base: 'no-such-ref' })).rejects.toThrow(
      /--base "no-such-ref" names no commit/,
    );
  });

  it('prints each package, its changes and the fix', async () => {
    const root = await fixtureRepo({ fixture: 'removed-response-field' });
    await addChangeset(root, { orders: 'minor' });
    const text = formatVerdicts(await runSpecDiffGate({ root }));
    expect(text).toContain('✓ @fixture/billing 1.0.0 → 1.0.0 (since @fixture/billing@1.0.0)');
    expect(text).toContain('✗ @fixture/orders 1.0.0 → 1.1.0 (since @fixture/orders@1.0.0)');
    expect(text).toMatch(/major: Property `total` of `Order` was removed\. \(property-removed\)/);
  });
});
