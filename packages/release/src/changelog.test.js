// @ts-check
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changelogEntries,
  getDependencyReleaseLine,
  getReleaseLine,
  regroupLatestRelease,
} from './changelog.js';
import {
  createFixtureWorkspace,
  removeFixtureWorkspaces,
  writeChangesetConfig,
  writeFixtureFile,
} from './fixture-workspace.js';
import { findRepoRoot } from './workspace.js';

const run = promisify(execFile);
const changesetsBin = createRequire(import.meta.url).resolve('@changesets/cli/bin.js');
const changelogModule = fileURLToPath(new URL('./changelog.js', import.meta.url));
const changelogCli = fileURLToPath(new URL('./changelog-cli.js', import.meta.url));
const repoRoot = findRepoRoot(fileURLToPath(import.meta.url));

afterAll(removeFixtureWorkspaces);

describe('changelogEntries', () => {
  it('files a summary without headings by its bump', () => {
    const summary = 'Calls retry a 503.';
    expect(changelogEntries({ id: 'a', summary }, 'major')[0]?.heading).toBe('Breaking Changes');
    expect(changelogEntries({ id: 'a', summary }, 'minor')[0]?.heading).toBe('Features Added');
    expect(changelogEntries({ id: 'a', summary }, 'patch')[0]?.heading).toBe('Bugs Fixed');
  });

  it('marks a breaking change in a minor changeset of a 0.x package by its heading', () => {
    const summary =
      '### Breaking Changes\n\n- `getApprovals` is gone: call `approvals.list`.\n\n' +
      '### Features Added\n\n- `tier` paces the client.\n- `fromEnv()` reads\n  the variables.';
    expect(changelogEntries({ id: 'a', summary }, 'minor')).toEqual([
      { heading: 'Breaking Changes', text: '`getApprovals` is gone: call `approvals.list`.' },
      { heading: 'Features Added', text: '`tier` paces the client.' },
      { heading: 'Features Added', text: '`fromEnv()` reads\nthe variables.' },
    ]);
  });

  it('refuses any other heading, naming the changeset', () => {
    expect(() =>
      changelogEntries({ id: 'tidy-up', summary: '### Refactoring\n\nSmaller modules.' }, 'patch'),
    ).toThrow(
      '.changeset/tidy-up.md: "### Refactoring" is no CHANGELOG heading; use ### Breaking Changes, ### Features Added, ### Bugs Fixed, ### Other Changes',
    );
  });
});

describe('the changesets changelog functions', () => {
  it('write no commit hash, and one line for new dependency versions', async () => {
    const line = await getReleaseLine({ id: 'fix', summary: 'A 503 is retried.' }, 'patch');
    expect(line).toBe('<!-- changelog: Bugs Fixed -->\n- A 503 is retried.\n');
    expect(await getDependencyReleaseLine([], [])).toBe('');
    expect(
      await getDependencyReleaseLine(
        [],
        [
          { name: '@partner-apis/core', newVersion: '0.3.0' },
          { name: '@partner-apis/auth', newVersion: '0.2.1' },
        ],
      ),
    ).toBe(
      '<!-- changelog: Other Changes -->\n- Uses `@partner-apis/core` 0.3.0 and `@partner-apis/auth` 0.2.1.\n',
    );
  });
});

describe('regroupLatestRelease', () => {
  const written = [
    '# @fixture/orders',
    '',
    '## 1.4.0',
    '',
    '### Minor Changes',
    '',
    '<!-- changelog: Features Added -->',
    '- `list` takes `status`.',
    '',
    '<!-- changelog: Breaking Changes -->',
    '- `total` is gone.',
    '',
    '### Patch Changes',
    '',
    '<!-- changelog: Other Changes -->',
    '- Uses `@fixture/core` 0.2.0.',
    '',
    '## 1.3.0',
    '',
    '### Minor Changes',
    '',
    '- First release.',
    '',
  ].join('\n');

  it('files the newest release under the headings in their order, and leaves older ones', () => {
    expect(regroupLatestRelease(written)).toBe(
      [
        '# @fixture/orders',
        '',
        '## 1.4.0',
        '',
        '### Breaking Changes',
        '',
        '- `total` is gone.',
        '',
        '### Features Added',
        '',
        '- `list` takes `status`.',
        '',
        '### Other Changes',
        '',
        '- Uses `@fixture/core` 0.2.0.',
        '',
        '## 1.3.0',
        '',
        '### Minor Changes',
        '',
        '- First release.',
        '',
      ].join('\n'),
    );
  });

  it('files Breaking Changes under Other Changes before a first major', () => {
    const early = written.replace('## 1.4.0', '## 0.4.0').replace('## 1.3.0', '## 0.3.0');
    expect(regroupLatestRelease(early)).toContain(
      '## 0.4.0\n\n### Features Added\n\n- `list` takes `status`.\n\n### Other Changes\n\n- Uses `@fixture/core` 0.2.0.\n- `total` is gone.\n',
    );
  });

  it("files a package's first release under Features Added alone", () => {
    const first = written.slice(0, written.indexOf('## 1.3.0'));
    expect(regroupLatestRelease(first)).toBe(
      '# @fixture/orders\n\n## 1.4.0\n\n### Features Added\n\n- `list` takes `status`.\n- `total` is gone.\n- Uses `@fixture/core` 0.2.0.\n',
    );
  });

  it('changes nothing the second time, nor a CHANGELOG without releases', () => {
    const once = regroupLatestRelease(written);
    expect(regroupLatestRelease(once)).toBe(once);
    expect(regroupLatestRelease('# @fixture/orders\n')).toBe('# @fixture/orders\n');
  });
});

describe('pnpm version-packages', () => {
  it('writes a CHANGELOG release under the headings, without dependency noise', async () => {
    const root = await createFixtureWorkspace({ fixture: 'description-only', version: '0.3.0' });
    await writeChangesetConfig(root, changelogModule);
    await writeFixtureFile(
      join(root, '.changeset/orders-v2.md'),
      `---\n'@fixture/orders': minor\n---\n\n### Breaking Changes\n\n` +
        '- `Order.total` is gone: add up `Order.lines`.\n\n### Features Added\n\n' +
        '- `listOrders` takes `status`.\n',
    );
    await writeFixtureFile(
      join(root, '.changeset/billing-fix.md'),
      `---\n'@fixture/billing': patch\n---\n\nAn invoice of 0.00 is no longer refused.\n`,
    );
    const env = { ...process.env, NODE_NO_WARNINGS: '1' };
    await run(process.execPath, [changesetsBin, 'version'], { cwd: root, env, timeout: 60_000 });
    await run(process.execPath, [changelogCli], { cwd: root, env, timeout: 60_000 });

    const orders = await readFile(join(root, 'packages/orders/CHANGELOG.md'), 'utf8');
    // Its first release: what it adds, nothing broken or fixed.
    expect(orders).toBe(
      '# @fixture/orders\n\n## 0.4.0\n\n### Features Added\n\n' +
        '- `listOrders` takes `status`.\n- `Order.total` is gone: add up `Order.lines`.\n',
    );
    const billing = await readFile(join(root, 'packages/billing/CHANGELOG.md'), 'utf8');
    expect(billing).toContain('## 0.3.1\n\n### Features Added\n\n- An invoice of 0.00');
  });
});

describe('the pending changesets of this repository', () => {
  it('use only the CHANGELOG headings, and say what a user notices', async () => {
    const dir = join(repoRoot, '.changeset');
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
      const text = await readFile(join(dir, file), 'utf8');
      const summary = text.replace(/^---\n[\s\S]*?\n---\n/, '');
      const id = file.replace(/\.md$/, '');
      expect(() => changelogEntries({ id, summary }, 'patch')).not.toThrow();
      expect(summary, `.changeset/${file}`).not.toMatch(
        /Updated dependencies|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/,
      );
    }
  });
});

describe('the CHANGELOGs of this repository', () => {
  it('file a first release under Features Added alone, and Breaking Changes only after a first major', async () => {
    const { existsSync } = await import('node:fs');
    const { listPublishablePackages } = await import('./workspace.js');
    for (const pkg of await listPublishablePackages(repoRoot)) {
      const file = join(pkg.dir, 'CHANGELOG.md');
      if (!existsSync(file)) continue;
      const releases = (await readFile(file, 'utf8')).split(/^## /m).slice(1).reverse();
      releases.forEach((release, index) => {
        const version = release.slice(0, release.indexOf('\n'));
        const headings = [...release.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
        const where = `${pkg.relativeDir}/CHANGELOG.md ${version}`;
        if (index === 0) expect(headings, where).toEqual(['Features Added']);
        const afterMajor = releases.slice(0, index).some((earlier) => /^[1-9]/.test(earlier));
        if (!afterMajor) expect(headings, where).not.toContain('Breaking Changes');
      });
    }
  });
});
