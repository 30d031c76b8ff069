// The consumer's path: @partner-apis/approvals and the packages it depends on go to a local
// registry on 127.0.0.1, a fresh project outside the workspace installs only it with npm, and
// the approvals README example runs in that project on Node as ESM and through `require`, on
// Bun, on Deno and on workerd, against the sandbox. Only 127.0.0.1 and the npm registry (for
// third-party dependencies) are contacted.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findRepoRoot,
  listPublishablePackages,
  npmEnvironment,
  packPackage,
  runNpm,
  startLocalRegistry,
} from '@partner-apis/release';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReadmeExample, type Target } from './run-example.js';

const root = findRepoRoot(fileURLToPath(import.meta.url));
const TARGETS: readonly Target[] = ['node-esm', 'node-cjs', 'bun', 'deno', 'workerd'];

let scratch: string;
let registry: Awaited<ReturnType<typeof startLocalRegistry>> | undefined;
let sandbox: Sandbox | undefined;
let sandboxJson: string;
let app: string;

/** `name` and the workspace packages it depends on, transitively: what its install needs. */
async function withWorkspaceDependencies(name: string) {
  const all = new Map((await listPublishablePackages(root)).map((pkg) => [pkg.name, pkg]));
  const needed = new Set<string>();
  const visit = (next: string) => {
    const pkg = all.get(next);
    if (pkg === undefined || needed.has(next)) return;
    needed.add(next);
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) visit(dependency);
  };
  visit(name);
  return [...needed].map((each) => all.get(each)).filter((pkg) => pkg !== undefined);
}

/** Packs `name` and its workspace dependencies and publishes them, three at a time. */
async function publishWithDependencies(name: string, npmEnv: NodeJS.ProcessEnv) {
  const packages = await withWorkspaceDependencies(name);
  const packs = join(scratch, 'packs');
  await mkdir(packs);
  const npmrc = join(scratch, 'publish.npmrc');
  await writeFile(npmrc, `//${new URL(registry?.url ?? '').host}/:_authToken=${registry?.token}\n`);
  const lanes = [0, 1, 2].map(async (lane) => {
    for (const pkg of packages.filter((_, index) => index % 3 === lane)) {
      const { tarball } = await packPackage(pkg.dir, packs);
      await runNpm(['publish', tarball, '--registry', registry?.url ?? '', '--ignore-scripts'], {
        cwd: scratch,
        env: { ...npmEnv, npm_config_userconfig: npmrc },
      });
    }
  });
  // Every lane finishes before the hook does, so no npm process outlives the registry.
  const failed = (await Promise.allSettled(lanes)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'consumer-install-'));
  registry = await startLocalRegistry(join(scratch, 'registry'));
  const npmEnv = npmEnvironment(join(scratch, 'npm-cache'));
  await publishWithDependencies('@partner-apis/approvals', npmEnv);

  app = join(scratch, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '0.0.0', private: true, type: 'module' }),
  );
  await writeFile(join(app, '.npmrc'), `@partner-apis:registry=${registry.url}\n`);
  await runNpm(['install', '@partner-apis/approvals', '--ignore-scripts'], {
    cwd: app,
    env: npmEnv,
  });

  sandbox = await startSandbox();
  const { urls, credentials, fixtures } = sandbox;
  sandboxJson = JSON.stringify({ urls, credentials, fixtures });
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  await registry?.close();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
}, 30_000);

describe('a project that installed only @partner-apis/approvals from a registry', () => {
  it.each(TARGETS)('runs the README example on %s', async (target) => {
    const readme = join(root, 'packages', 'approvals', 'README.md');
    const { code, output } = await runReadmeExample(target, app, readme, sandboxJson);
    expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed$/m);
    expect(code, output).toBe(0);
  });
});
