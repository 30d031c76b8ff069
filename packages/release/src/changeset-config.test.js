// @ts-check
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingIgnores, readChangesetConfig } from './changeset-config.js';
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
