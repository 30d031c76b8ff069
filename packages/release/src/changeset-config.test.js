// @ts-check
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingIgnores, readChangesetConfig } from './changeset-config.js';
import { writeFixtureFile } from './fixture-workspace.js';
import { plannedReleases } from './release-plan.js';
import { findRepoRoot, listWorkspacePackages } from './workspace.js';

const root = findRepoRoot(fileURLToPath(import.meta.url));

describe('.changeset/config.json', () => {
  it('ignores every private app, which is never released', async () => {
    const missing = missingIgnores(
      await readChangesetConfig(root),
      await listWorkspacePackages(root),
    );
    expect(missing, `add ${JSON.stringify(missing)} to "ignore" in .changeset/config.json`).toEqual(
      [],
    );
  });

  it('publishes publicly and writes the CHANGELOGs under the headings users read', async () => {
    const config = await readChangesetConfig(root);
    expect(config.access).toBe('public');
    expect(config.changelog).toBe('@partner-apis/release/changelog');
    // Changesets resolves the module from .changeset/, as this does.
    const resolved = createRequire(join(root, '.changeset/config.json')).resolve(
      String(config.changelog),
    );
    expect(resolved).toBe(fileURLToPath(new URL('./changelog.js', import.meta.url)));
  });

  // A service's Node file carries core, auth and errors (`dist/standalone/`): a fix in one of
  // them reaches Node users only in a new release of each service.
  it('releases every dependent of a package it releases, even one whose range still takes it', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'changeset-config-'));
    try {
      await writeFixtureFile(join(workspace, 'package.json'), {
        name: 'fixture-root',
        private: true,
      });
      await writeFixtureFile(
        join(workspace, 'pnpm-workspace.yaml'),
        "packages:\n  - 'packages/*'\n",
      );
      await writeFixtureFile(join(workspace, '.changeset/config.json'), {
        ...(await readChangesetConfig(root)),
        changelog: false,
        ignore: [],
      });
      await writeFixtureFile(join(workspace, 'packages/core/package.json'), {
        name: '@fixture/core',
        version: '0.1.0',
      });
      await writeFixtureFile(join(workspace, 'packages/service/package.json'), {
        name: '@fixture/service',
        version: '1.0.0',
        dependencies: { '@fixture/core': 'workspace:^' },
      });
      await writeFixtureFile(
        join(workspace, '.changeset/fix.md'),
        "---\n'@fixture/core': patch\n---\n\nA fix.\n",
      );

      const plan = await plannedReleases(workspace);

      expect(plan.get('@fixture/service')).toMatchObject({ type: 'patch', newVersion: '1.0.1' });
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe('missingIgnores', () => {
  it('names the private apps that are not ignored, and only those', () => {
    const packages = [
      { name: '@partner-apis/cli', relativeDir: 'apps/cli', publishable: true },
      { name: '@partner-apis/demo', relativeDir: 'apps/demo', publishable: false },
      { name: '@partner-apis/site', relativeDir: 'apps/site', publishable: false },
      { name: '@partner-apis/approvals', relativeDir: 'packages/approvals', publishable: true },
    ];
    expect(missingIgnores({ ignore: ['@partner-apis/demo'] }, packages)).toEqual([
      '@partner-apis/site',
    ]);
    expect(missingIgnores({}, packages)).toEqual(['@partner-apis/demo', '@partner-apis/site']);
  });
});
