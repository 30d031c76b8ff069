// Every TypeScript block of every published package's README compiles under the repository's
// strict settings, against the built packages, as a user pastes it.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findRepoRoot, listPublishablePackages } from '@partner-apis/release';
import { beforeAll, describe, expect, it } from 'vitest';
import { readmeBlocks } from './readme-blocks.js';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const root = findRepoRoot(fileURLToPath(import.meta.url));
// Inside this package's node_modules, so the blocks resolve the workspace's packages.
const dir = join(packageRoot, 'node_modules', '.readme-blocks');

const GENERATED_OPENAPI = `export type { paths } from '@partner-apis/approvals';\n`;
const GENERATED_OPERATIONS = `import type { ServiceDescription } from '@partner-apis/core';
import { operations as approvals } from '@partner-apis/approvals/internal';
import { operations as exposure } from '@partner-apis/exposure/internal';
export const { getApprovals } = approvals;
export const { listLocations } = exposure;
export const service = {
  operations: { getApprovals, listLocations },
  securitySchemes: {},
  tracingHeaders: { requestId: 'X-Z-Request-Id' },
} as const satisfies ServiceDescription;
`;

/** File name of a block → the README and line it comes from. */
const origins = new Map<string, string>();

beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const pkg of await listPublishablePackages(root)) {
    const readme = await readFile(join(pkg.dir, 'README.md'), 'utf8');
    for (const block of readmeBlocks(readme)) {
      const file = `${pkg.relativeDir.replace(/\//g, '-')}-${block.line}.ts`;
      origins.set(file, `${pkg.relativeDir}/README.md:${block.line}`);
      await writeFile(join(dir, file), block.code);
    }
  }
  // A service package's README example imports its own generated files: a real service's stand in.
  await mkdir(join(dir, 'generated'));
  await writeFile(join(dir, 'generated', 'openapi.ts'), GENERATED_OPENAPI);
  await writeFile(join(dir, 'generated', 'operations.ts'), GENERATED_OPERATIONS);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { noEmit: true, types: ['node'], noUnusedLocals: false, rootDir: '.' },
      include: ['*.ts', 'generated/*.ts'],
    }),
  );
}, 60_000);

describe('the TypeScript blocks of the published READMEs', () => {
  it('compile under tsc --strict, each on its own', async () => {
    expect(origins.size).toBeGreaterThan(20);
    const output = await run(process.execPath, [tsc, '-p', dir], { timeout: 240_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    const errors = output
      .split('\n')
      .filter((line) => /^\S+\.ts\(\d+,\d+\): error/.test(line))
      .map((line) => {
        const file = basename(line.slice(0, line.indexOf('(')));
        return `${origins.get(file) ?? file}: ${line.slice(line.indexOf('error'))}`;
      });
    expect(errors).toEqual([]);
  }, 300_000);
});
