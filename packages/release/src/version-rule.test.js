// @ts-check
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkVersionRule, listServiceSpecs } from './version-rule.js';
import { findRepoRoot } from './workspace.js';

const repoRoot = findRepoRoot(fileURLToPath(import.meta.url));
const serviceSpecs = await listServiceSpecs(repoRoot);
const repoResults = await checkVersionRule(repoRoot);

describe('the version rule in this repository', () => {
  it('finds the service specs, and not the shared components', () => {
    const apis = serviceSpecs.map((s) => s.api);
    expect(apis).toEqual(expect.arrayContaining(['approvals', 'liability']));
    expect(apis).not.toContain('common');
  });

  for (const spec of serviceSpecs) {
    // A service package that is not written yet has no version to check.
    const exists = existsSync(join(repoRoot, 'packages', spec.api, 'package.json'));
    it.skipIf(!exists)(`gives packages/${spec.api} the major version of ${spec.spec}`, () => {
      const result = repoResults.find((r) => r.spec === spec.spec);
      expect(result, `packages/${spec.api} is not generated from ${spec.spec}`).toBeDefined();
      expect(result?.problem, result?.problem).toBeUndefined();
    });
  }
});

describe('checkVersionRule', () => {
  /** @type {string[]} */
  const roots = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** @param {string} path @param {unknown} content */
  async function write(path, content) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  }

  /**
   * A workspace with specs/orders at `specVersion`, packages/orders at `version`, and a
   * pending changeset when `bump` is given.
   * @param {{ specVersion: string, version: string, bump?: string }} options
   */
  async function workspace({ specVersion, version, bump }) {
    const root = await mkdtemp(join(tmpdir(), 'version-rule-'));
    roots.push(root);
    await write(join(root, 'package.json'), {
      name: 'fixture-root',
      version: '0.0.0',
      private: true,
    });
    await write(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
    await write(join(root, '.changeset/config.json'), { changelog: false, ignore: [] });
    await write(
      join(root, 'specs/orders/openapi.yaml'),
      `openapi: 3.1.0\ninfo: { title: Orders, version: ${specVersion} }\n` +
        `paths:\n  /orders:\n    get:\n      responses:\n        '204': { description: None. }\n`,
    );
    await write(join(root, 'specs/common/openapi.yaml'), 'openapi: 3.1.0\npaths: {}\n');
    await write(join(root, 'packages/orders/package.json'), { name: '@fixture/orders', version });
    await write(join(root, 'packages/orders/codegen.json'), {
      jobs: [{ spec: '../../specs/orders/openapi.yaml', types: 'src/generated/openapi.ts' }],
    });
    if (bump) {
      await write(
        join(root, '.changeset/next.md'),
        `---\n'@fixture/orders': ${bump}\n---\n\nNext.\n`,
      );
    }
    return root;
  }

  it('asks for a major changeset when a first release would miss the upstream v1', async () => {
    const [result] = await checkVersionRule(
      await workspace({ specVersion: '1.0.0', version: '0.1.0', bump: 'minor' }),
    );
    expect(result).toMatchObject({ name: '@fixture/orders', nextVersion: '0.2.0' });
    expect(result?.problem).toBe(
      '@fixture/orders would be released as 0.2.0, but specs/orders/openapi.yaml is at 1.0.0: ' +
        `its major version must be 1. Add a changeset with "'@fixture/orders': major".`,
    );
  });

  it('passes when the major changeset takes the package to the spec major', async () => {
    const results = await checkVersionRule(
      await workspace({ specVersion: '1.0.0', version: '0.1.0', bump: 'major' }),
    );
    expect(results).toEqual([
      {
        name: '@fixture/orders',
        spec: 'specs/orders/openapi.yaml',
        specVersion: '1.0.0',
        nextVersion: '1.0.0',
        problem: undefined,
      },
    ]);
  });

  it('keeps a package below 1.0.0 while its upstream publishes no version', async () => {
    const root = await workspace({ specVersion: '0.1.0', version: '0.3.0', bump: 'major' });
    const [result] = await checkVersionRule(root);
    expect(result?.problem).toMatch(/released as 1\.0\.0, .* its major version must be 0\./);
    const [minor] = await checkVersionRule(
      await workspace({ specVersion: '0.1.0', version: '0.3.0', bump: 'minor' }),
    );
    expect(minor?.problem).toBeUndefined();
  });

  it('fails a major release that the spec does not make', async () => {
    const [result] = await checkVersionRule(
      await workspace({ specVersion: '1.4.0', version: '1.2.0', bump: 'major' }),
    );
    expect(result?.problem).toMatch(
      /released as 2\.0\.0, .* or the spec's info\.version if the upstream released a new major/,
    );
  });

  it('skips a spec whose package does not exist yet', async () => {
    const root = await workspace({ specVersion: '1.0.0', version: '0.1.0' });
    await rm(join(root, 'packages/orders'), { recursive: true });
    expect(await listServiceSpecs(root)).toEqual([
      { api: 'orders', spec: 'specs/orders/openapi.yaml', version: '1.0.0' },
    ]);
    expect(await checkVersionRule(root)).toEqual([]);
  });
});
