// The consumer's path: every public package goes to a local registry on 127.0.0.1, a fresh
// project outside the workspace installs only @partner-apis/approvals from it with npm, and
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

/** Packs every public package and publishes it to the local registry, three at a time. */
async function publishAll(npmEnv: NodeJS.ProcessEnv) {
  const packages = await listPublishablePackages(root);
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
  await publishAll(npmEnv);

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
