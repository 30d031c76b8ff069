// The README examples of approvals and liability, run unchanged on Bun, Deno and workerd against
// one sandbox on 127.0.0.1. Only their `vitest` and sandbox imports are swapped for the harness,
// which the Node side hands the running sandbox's addresses.
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeExample } from './readme-example.js';
import { runChild, runtimeBinary, type RuntimeName } from './runtimes.js';
import { SCRIPT_ENTRY, WORKER_ENTRY, workerdConfig } from './workerd-config.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = dirname(here);
const packagesDir = dirname(packageRoot);
const EXAMPLES = ['approvals', 'liability'] as const;
const RUNTIMES: readonly RuntimeName[] = ['bun', 'deno', 'workerd'];

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

/** A folder with the example, the harness and an entry; packages resolve from this package. */
async function exampleFolder(service: string, runtime: RuntimeName): Promise<string> {
  const dir = join(scratch, `${service}-${runtime}`);
  await mkdir(dir);
  await symlink(join(packageRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const dependencies = Object.fromEntries(
    [`@partner-apis/${service}`, '@partner-apis/errors'].map((name) => [name, '*']),
  );
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: `readme-${service}`, private: true, type: 'module', dependencies }),
  );
  await copyFile(join(here, 'readme-harness.ts'), join(dir, 'harness.ts'));
  const readme = join(packagesDir, service, 'README.md');
  await writeFile(join(dir, 'example.ts'), await readmeExample(readme, './harness.ts'));
  return dir;
}

async function runOn(runtime: RuntimeName, dir: string) {
  const binary = await runtimeBinary(runtime);
  const env = { ...process.env, PARTNER_APIS_SANDBOX: sandboxJson };
  if (runtime === 'bun') {
    await writeFile(join(dir, 'entry.ts'), SCRIPT_ENTRY);
    return runChild(binary, ['run', 'entry.ts'], { cwd: dir, env });
  }
  if (runtime === 'deno') {
    await writeFile(join(dir, 'entry.ts'), SCRIPT_ENTRY);
    const allow = ['--allow-net=127.0.0.1', '--allow-env', '--allow-read'];
    return runChild(binary, ['run', '--no-prompt', ...allow, 'entry.ts'], { cwd: dir, env });
  }
  // workerd runs bundles, as wrangler would build one: the browser and worker conditions.
  await writeFile(join(dir, 'worker.ts'), WORKER_ENTRY);
  await build({
    entryPoints: [join(dir, 'worker.ts')],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['@opentelemetry/api'],
    logLevel: 'error',
  });
  await writeFile(join(dir, 'config.capnp'), workerdConfig('worker.js', sandboxJson));
  return runChild(binary, ['test', 'config.capnp'], { cwd: dir });
}

describe.each(EXAMPLES)('the %s README example', (service) => {
  it.each(RUNTIMES)('passes on %s', async (runtime) => {
    const dir = await exampleFolder(service, runtime);
    const { code, output } = await runOn(runtime, dir);
    expect(output, output).toMatch(/^(\d+) passed, 0 failed$/m);
    expect(output).not.toMatch(/^0 passed/m);
    expect(code, output).toBe(0);
  });
});
