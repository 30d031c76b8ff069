// @ts-check
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmEnvironment } from './npm-cli.js';
import {
  manifestProblems,
  npmPackFiles,
  packPackage,
  publintMessages,
  typeProblems,
  unneededFiles,
} from './package-hygiene.js';
import { findRepoRoot, listPublishablePackages } from './workspace.js';

const root = findRepoRoot(fileURLToPath(import.meta.url));
const publishable = await listPublishablePackages(root);
const rootManifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const ownManifest = JSON.parse(
  await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
);

/** @type {string} */
let scratch;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'package-hygiene-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('packages/release', () => {
  it('builds every public package first: each is one of its devDependencies', () => {
    const missing = publishable
      .filter((p) => ownManifest.devDependencies?.[p.name] !== 'workspace:*')
      .map((p) => `"${p.name}": "workspace:*"`);
    expect(
      missing,
      `add to devDependencies of packages/release/package.json: ${missing.join(', ')}`,
    ).toEqual([]);
  });
});

describe.each(publishable.map((p) => [p.name, p]))('%s', (_name, pkg) => {
  /** @type {import('./package-hygiene.js').PackedPackage} */
  let packed;
  beforeAll(async () => {
    packed = await packPackage(pkg.dir, scratch);
  }, 120_000);

  it('has the shared package.json shape', () => {
    const problems = manifestProblems(pkg, packed.files, rootManifest.engines.node);
    expect(problems, `${pkg.relativeDir}/package.json: ${problems.join('; ')}`).toEqual([]);
  });

  it('ships only what users need, and its build', () => {
    expect(unneededFiles(packed.files)).toEqual([]);
    expect(packed.files, `add ${pkg.relativeDir}/README.md`).toContain('README.md');
    expect(packed.files.some((f) => f.startsWith('dist/') && f.endsWith('.d.ts'))).toBe(true);
  });

  it('ships its CHANGELOG.md, also when npm packs it', async () => {
    const hint = `add "CHANGELOG.md" to "files" of ${pkg.relativeDir}/package.json`;
    expect(packed.files, hint).toContain('CHANGELOG.md');
    const npmFiles = await npmPackFiles(pkg.dir, npmEnvironment(join(scratch, 'npm-cache')));
    expect(npmFiles, hint).toContain('CHANGELOG.md');
  });

  it('is clean for publint', async () => {
    expect(await publintMessages(packed.tarball)).toEqual([]);
  });

  it('is clean for Are the types wrong?', async () => {
    expect(await typeProblems(packed.tarball)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const pkg = {
    name: '@fixture/shape',
    version: '1.0.0',
    dir: '/repo/packages/shape',
    relativeDir: 'packages/shape',
    publishable: true,
    manifest: {
      type: 'commonjs',
      exports: { '.': { default: './dist/index.js', types: './dist/index.d.ts' } },
      repository: { url: 'git+https://example.invalid/repo.git', directory: 'packages/other' },
      engines: { node: '>=18' },
    },
  };

  it('names every field that is out of shape', () => {
    expect(manifestProblems(pkg, ['package.json', 'dist/index.js'], '>=20.19')).toEqual([
      'set "type": "module"',
      'set "sideEffects": false',
      'list the shipped files in "files"',
      'set "engines": { "node": ">=20.19" }',
      'set "repository" with "url" and "directory": "packages/shape"',
      'set "license"',
      'add a LICENSE file beside package.json',
      'put "types" first in exports["."]',
    ]);
  });

  it('finds sources, tests and build state among the packed files', () => {
    expect(
      unneededFiles([
        'package.json',
        'LICENSE',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'internal/package.json',
        'dist/client.test.js',
        'dist/client.test.d.ts.map',
        'dist/tsconfig.build.tsbuildinfo',
        'src/index.ts',
        'codegen.json',
      ]),
    ).toEqual([
      'dist/client.test.js',
      'dist/client.test.d.ts.map',
      'dist/tsconfig.build.tsbuildinfo',
      'src/index.ts',
      'codegen.json',
    ]);
  });
});
