// The README examples of approvals and liability, run unchanged on Bun, Deno and workerd against
// one sandbox on 127.0.0.1, with the packages of this workspace. Only their `vitest` and sandbox
// imports are swapped for the harness, which is handed the running sandbox's addresses.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReadmeExample, type Target } from './run-example.js';

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const packagesDir = dirname(packageRoot);
const SERVICES = ['approvals', 'liability'] as const;
const TARGETS: readonly Target[] = ['bun', 'deno', 'workerd'];

let scratch: string;
let sandbox: Sandbox;
let sandboxJson: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'ecosystem-readme-'));
  sandbox = await startSandbox();
  const { urls, credentials, fixtures } = sandbox;
  sandboxJson = JSON.stringify({ urls, credentials, fixtures });
});

afterAll(async () => {
  await sandbox?.close();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

/** A folder that resolves the workspace's packages through this package's node_modules. */
async function exampleFolder(service: string, target: Target): Promise<string> {
  const dir = join(scratch, `${service}-${target}`);
  await mkdir(dir);
  await symlink(join(packageRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const dependencies = Object.fromEntries(
    [`@partner-apis/${service}`, '@partner-apis/errors'].map((name) => [name, '*']),
  );
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: `readme-${service}`, private: true, type: 'module', dependencies }),
  );
  return dir;
}

describe.each(SERVICES)('the %s README example', (service) => {
  it.each(TARGETS)('passes on %s', async (target) => {
    const dir = await exampleFolder(service, target);
    const readme = join(packagesDir, service, 'README.md');
    const { code, output } = await runReadmeExample(target, dir, readme, sandboxJson);
    expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed$/m);
    expect(code, output).toBe(0);
  });
});
