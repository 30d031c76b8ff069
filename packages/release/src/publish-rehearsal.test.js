// @ts-check
// The publish rehearsal: every public package goes to a local registry on 127.0.0.1, and a
// project outside the workspace installs @partner-apis/approvals from it with npm, type-checks a
// TypeScript file against it and runs that file against the sandbox, itself installed from the
// registry. Only 127.0.0.1 and the npm registry (for third-party dependencies) are contacted.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLine } from './child-output.js';
import { installFootprint } from './install-footprint.js';
import { startLocalRegistry } from './local-registry.js';
import { npmEnvironment, runNpm } from './npm-cli.js';
import { packPackage } from './package-hygiene.js';
import { findRepoRoot, listPublishablePackages } from './workspace.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const nodeTypes = dirname(dirname(require.resolve('@types/node/package.json')));

const root = findRepoRoot(fileURLToPath(import.meta.url));
const publishable = await listPublishablePackages(root);

/** @type {string} */
let scratch;
/** @type {import('./local-registry.js').LocalRegistry | undefined} */
let registry;
/** @type {import('node:child_process').ChildProcess | undefined} */
let sandbox;
/** @type {NodeJS.ProcessEnv} */
let npmEnv;
let published = false;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'publish-rehearsal-'));
  registry = await startLocalRegistry(join(scratch, 'registry'));
  npmEnv = npmEnvironment(join(scratch, 'npm-cache'));
}, 90_000);

afterAll(async () => {
  if (sandbox && sandbox.exitCode === null && sandbox.signalCode === null) {
    const exited = new Promise((resolve) => sandbox?.once('exit', resolve));
    sandbox.kill('SIGTERM');
    await exited;
  }
  await registry?.close();
  await rm(scratch, { recursive: true, force: true });
}, 30_000);

/**
 * A folder outside the workspace with a package.json, taking @partner-apis/* from the local
 * registry and everything else from the usual one.
 * @param {string} name
 */
async function freshProject(name) {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }),
  );
  await writeFile(join(dir, '.npmrc'), `@partner-apis:registry=${registry?.url}\n`);
  return dir;
}

const consumer = `import { createApprovalsClient, type ApprovalsResult } from '@partner-apis/approvals';

const client = createApprovalsClient({
  baseUrl: process.env.APPROVALS_URL ?? '',
  credentials: {
    clientId: process.env.APPROVALS_CLIENT_ID ?? '',
    clientSecret: process.env.APPROVALS_CLIENT_SECRET ?? '',
  },
});

const result: ApprovalsResult = await client.getApprovals(process.env.EMPLOYEE_NUMBER ?? '');
console.log(JSON.stringify({
  employeeNumber: result.employeeNumber,
  requisitions: result.requisitionApprovals?.length,
  invoices: result.invoiceApprovals?.length,
  expenseReports: result.expenseReportApprovals?.length,
  contracts: result.contractApprovals?.length,
}));

export function typesAreChecked(): void {
  // @ts-expect-error the employee number is a string
  void client.getApprovals(100234);
}
`;

const sandboxHost = `import { startSandbox } from '@partner-apis/sandbox';

const sandbox = await startSandbox({
  credentials: {
    approvals: {
      clientId: process.env.APPROVALS_CLIENT_ID,
      clientSecret: process.env.APPROVALS_CLIENT_SECRET,
    },
  },
});
const ready = { url: sandbox.urls.approvals, employee: sandbox.fixtures.employeeWithApprovals };
process.stdout.write('READY ' + JSON.stringify(ready) + '\\n');
const stop = () => sandbox.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
`;

describe('publish rehearsal', () => {
  it('publishes every public package to a local registry', async () => {
    const packs = join(scratch, 'packs');
    await mkdir(packs);
    const npmrc = join(scratch, 'publish.npmrc');
    const host = new URL(registry?.url ?? '').host;
    await writeFile(npmrc, `//${host}/:_authToken=${registry?.token}\n`);
    // Three packages at a time: packing and publishing mostly wait on child processes.
    const lanes = [0, 1, 2].map(async (lane) => {
      for (const pkg of publishable.filter((_, index) => index % 3 === lane)) {
        const { tarball } = await packPackage(pkg.dir, packs);
        await runNpm(['publish', tarball, '--registry', registry?.url ?? '', '--ignore-scripts'], {
          cwd: scratch,
          env: { ...npmEnv, npm_config_userconfig: npmrc },
        }).catch((error) => {
          throw new Error(`${pkg.name}: ${error.message}`, { cause: error });
        });
      }
    });
    // Every lane finishes before the test does, so no npm process outlives the registry.
    const failed = (await Promise.allSettled(lanes)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    for (const pkg of publishable) {
      const response = await globalThis.fetch(new URL(pkg.name.replace('/', '%2f'), registry?.url));
      const packument = /** @type {{ 'dist-tags'?: { latest?: string } }} */ (
        await response.json()
      );
      expect(packument['dist-tags']?.latest, pkg.name).toBe(pkg.version);
    }
    published = true;
  }, 180_000);

  it('installs only @partner-apis/approvals, type-checks a consumer and runs it against the sandbox', async () => {
    expect(published, 'the packages were not published: see the test before').toBe(true);
    expect(publishable.map((p) => p.name)).toEqual(
      expect.arrayContaining(['@partner-apis/approvals', '@partner-apis/sandbox']),
    );
    const app = await freshProject('consumer');
    await runNpm(['install', '@partner-apis/approvals', '--ignore-scripts'], {
      cwd: app,
      env: npmEnv,
    });
    const { packages, bytes } = await installFootprint(app);
    console.log(
      `npm install @partner-apis/approvals: ${packages.length} packages ` +
        `(${packages.join(', ')}), ${(bytes / 1024).toFixed(1)} KiB in node_modules`,
    );
    expect(packages).toContain('@partner-apis/approvals');
    expect(packages).not.toContain('@partner-apis/sandbox');

    await writeFile(join(app, 'consumer.ts'), consumer);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          typeRoots: [nodeTypes],
          types: ['node'],
          outDir: 'out',
        },
        files: ['consumer.ts'],
      }),
    );
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app, timeout: 120_000 }).catch(
      (/** @type {{ stdout?: string }} */ error) => {
        throw new Error(`tsc found errors in the consumer:\n${error.stdout ?? error}`);
      },
    );

    const host = await freshProject('sandbox-host');
    await runNpm(['install', '@partner-apis/sandbox', '--ignore-scripts'], {
      cwd: host,
      env: npmEnv,
    });
    await writeFile(join(host, 'start.mjs'), sandboxHost);
    const credentials = {
      APPROVALS_CLIENT_ID: 'rehearsal-client',
      APPROVALS_CLIENT_SECRET: randomBytes(18).toString('hex'),
    };
    sandbox = spawn(process.execPath, ['start.mjs'], {
      cwd: host,
      env: { ...process.env, ...credentials },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const ready = JSON.parse((await waitForLine(sandbox, /^READY /, 60_000)).slice(6));
    expect(new URL(ready.url).hostname).toBe('127.0.0.1');

    const { stdout } = await run(process.execPath, ['out/consumer.js'], {
      cwd: app,
      timeout: 60_000,
      env: {
        ...process.env,
        ...credentials,
        APPROVALS_URL: ready.url,
        EMPLOYEE_NUMBER: ready.employee,
      },
    });
    const printed = JSON.parse(stdout);
    expect(printed.employeeNumber).toBe(ready.employee);
    for (const list of ['requisitions', 'invoices', 'expenseReports', 'contracts']) {
      expect(printed[list], list).toBeGreaterThan(0);
    }
  }, 240_000);
});
