// The consumer's path: @partner-apis/approvals and the packages it depends on go to a local
// registry on 127.0.0.1, a fresh project outside the workspace installs only it with npm, and
// the approvals README example runs in that project on Node as ESM and through `require`, on
// Bun, on Deno and on workerd, against the sandbox. Only 127.0.0.1 and the npm registry (for
// third-party dependencies) are contacted.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@partner-apis/release';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishToLocalRegistry, type LocalRegistryInstall } from './local-install.js';
import { runReadmeExample, type Target } from './run-example.js';

const root = findRepoRoot(fileURLToPath(import.meta.url));
const TARGETS: readonly Target[] = ['node-esm', 'node-cjs', 'bun', 'deno', 'workerd'];

let published: LocalRegistryInstall | undefined;
let sandbox: Sandbox | undefined;
let sandboxJson: string;
let app: string;

beforeAll(async () => {
  published = await publishToLocalRegistry('@partner-apis/approvals');
  app = join(published.scratch, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '0.0.0', private: true, type: 'module' }),
  );
  await published.install(app, ['@partner-apis/approvals']);

  sandbox = await startSandbox();
  const { urls, credentials, fixtures } = sandbox;
  sandboxJson = JSON.stringify({ urls, credentials, fixtures });
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  await published?.close();
}, 30_000);

describe('a project that installed only @partner-apis/approvals from a registry', () => {
  it.each(TARGETS)('runs the README example on %s', async (target) => {
    const readme = join(root, 'packages', 'approvals', 'README.md');
    const { code, output } = await runReadmeExample(target, app, readme, sandboxJson);
    expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed$/m);
    expect(code, output).toBe(0);
  });
});
