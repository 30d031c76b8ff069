// @ts-check
// The publish rehearsal: every public package goes to a local registry on 127.0.0.1, and a
// project outside the workspace installs @partner-apis/approvals from it with npm, type-checks a
// TypeScript file against it and runs that file against the sandbox, itself installed from the
// registry. Then, on the same registry, a new upstream major: a fixture v2 of the liability spec
// is generated, gated, versioned and published as 2.0.0 while a fix to v1 is released on its
// maintenance line, and a fresh project installs and calls both majors side by side. The command
// line and the MCP server are installed into an empty folder and run as users run them. Only
// 127.0.0.1 and the npm registry (for third-party dependencies) are contacted.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseYaml } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLine } from './child-output.js';
import { bundleSpec } from './component-library.js';
import { installFootprint } from './install-footprint.js';
import {
  createLiabilityWorkspace,
  fixtureGit,
  writeLiabilityV2Spec,
} from './liability-workspace.js';
import { startLocalRegistry } from './local-registry.js';
import { npmEnvironment, runNpm } from './npm-cli.js';
import { packPackage } from './package-hygiene.js';
import { publishTagOf } from './publish-tag.js';
import { changesetToAdd, formatVerdicts, runSpecDiffGate } from './spec-diff-gate.js';
import { findRepoRoot, listPublishablePackages } from './workspace.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const nodeTypes = dirname(dirname(require.resolve('@types/node/package.json')));
const changesetsBin = require.resolve('@changesets/cli/bin.js');
const codegenCli = join(dirname(require.resolve('@partner-apis/codegen')), 'cli.js');
const changelogCli = fileURLToPath(new URL('./changelog-cli.js', import.meta.url));

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
 * Publishes the package in `dir` to the local registry under a dist-tag.
 * @param {string} dir
 * @param {string} tag
 */
async function publishPackage(dir, tag) {
  const packs = join(scratch, 'packs');
  await mkdir(packs, { recursive: true });
  const npmrc = join(scratch, 'publish.npmrc');
  const host = new URL(registry?.url ?? '').host;
  await writeFile(npmrc, `//${host}/:_authToken=${registry?.token}\n`);
  const { tarball } = await packPackage(dir, packs);
  await runNpm(
    ['publish', tarball, '--registry', registry?.url ?? '', '--tag', tag, '--ignore-scripts'],
    { cwd: scratch, env: { ...npmEnv, npm_config_userconfig: npmrc } },
  );
}

/**
 * The dist-tags of a package on the local registry.
 * @param {string} name
 * @returns {Promise<Record<string, string>>}
 */
async function distTags(name) {
  const response = await globalThis.fetch(new URL(name.replace('/', '%2f'), registry?.url));
  const packument = /** @type {{ 'dist-tags'?: Record<string, string> }} */ (await response.json());
  return packument['dist-tags'] ?? {};
}

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

/**
 * The fixture's v1 of liability: a version above the workspace's own 1.0.0, which the first test
 * publishes, so the fixture's release does not publish over it.
 */
const V1 = '1.1.0';
const V1_FIX = '1.1.1';

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
      expect((await distTags(pkg.name)).latest, pkg.name).toBe(pkg.version);
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

const twoMajorsConsumer = `import { createLiabilityClient } from '@partner-apis/liability';
import { createLiabilityClient as createLiabilityV1Client } from 'liability-v1';

const credentials = {
  clientId: process.env.LIABILITY_CLIENT_ID ?? '',
  clientSecret: process.env.LIABILITY_CLIENT_SECRET ?? '',
};
const v1 = createLiabilityV1Client({ baseUrl: process.env.LIABILITY_V1_URL ?? '', credentials });
const v2 = createLiabilityClient({ baseUrl: process.env.LIABILITY_V2_URL ?? '', credentials });

const seller = { name: 'Nordlicht Home GmbH', address: { country: 'DE' } };
const fromV1 = await v1.sellers.create(seller);
const fromV2 = await v2.sellers.create({ ...seller, registrationNumber: 'HRB 214477' });
console.log(JSON.stringify({ v1: fromV1.sellerId, v2: fromV2.sellerId, v2Number: fromV2.registrationNumber }));

export function typesAreChecked(): void {
  // @ts-expect-error v2 of the upstream requires the seller's registration number
  void v2.sellers.create(seller);
}
`;

const twoMajorsSandboxHost = `import { readFileSync } from 'node:fs';
import { startSandbox } from '@partner-apis/sandbox';

const sandbox = await startSandbox({
  credentials: {
    liability: {
      clientId: process.env.LIABILITY_CLIENT_ID,
      clientSecret: process.env.LIABILITY_CLIENT_SECRET,
    },
  },
  liabilityMajors: [JSON.parse(readFileSync(process.env.LIABILITY_V2_SPEC, 'utf8'))],
});
process.stdout.write('READY ' + JSON.stringify(sandbox.urls.liabilityMajors) + '\\n');
const stop = () => sandbox.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
`;

describe('two majors of the liability API side by side', () => {
  /** @type {string} */
  let workspace;
  /** @type {string} */
  let v2Spec;
  const released = { v2: false, v1Fix: false };
  const liability = () => join(workspace, 'packages/liability');
  /** @param {string[]} args */
  const inWorkspace = (...args) =>
    run(process.execPath, args, { cwd: workspace, timeout: 120_000 }).catch(
      (/** @type {{ stderr?: string }} */ error) => {
        throw new Error(`${args.join(' ')} failed: ${error.stderr ?? error}`);
      },
    );
  const build = () =>
    run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
      cwd: liability(),
      timeout: 120_000,
    });
  const manifest = async () =>
    JSON.parse(await readFile(join(liability(), 'package.json'), 'utf8'));
  const changelog = () => readFile(join(liability(), 'CHANGELOG.md'), 'utf8');

  it('installs the command line and the MCP server into an empty folder, as users do', async () => {
    expect(published, 'the packages were not published: see the test before').toBe(true);
    const app = await freshProject('tools');
    await runNpm(['install', '@partner-apis/cli', '@partner-apis/mcp'], { cwd: app, env: npmEnv });
    const bin = (/** @type {string} */ name) => join(app, 'node_modules', '.bin', name);
    // Nothing configured: the commands and the server use their embedded sandbox.
    const env = { PATH: process.env.PATH ?? '', HOME: app, XDG_CONFIG_HOME: app };
    const cli = publishable.find((p) => p.name === '@partner-apis/cli');
    const version = await run(bin('partner-apis'), ['--version'], { cwd: app, env });
    expect(version.stdout).toMatch(new RegExp(`^partner-apis ${cli?.version} `));
    const read = await run(
      bin('partner-apis'),
      ['approvals', 'approvals', 'list', '--employee-number', '100234', '-o', 'json'],
      { cwd: app, env, timeout: 60_000 },
    );
    expect(JSON.parse(read.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'requisition' })]),
    );
    const client = new Client({ name: 'publish-rehearsal', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: bin('partner-apis-mcp'),
        env,
        cwd: app,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('exposure_locations_list');
    } finally {
      await client.close();
    }
  }, 240_000);

  it('a new upstream major: the gate asks for a major release, and 2.0.0 is published as latest', async () => {
    expect(published, 'the packages were not published: see the first test').toBe(true);
    workspace = await createLiabilityWorkspace(root, join(scratch, 'liability'), V1);
    await publishPackage(liability(), 'latest');

    await writeLiabilityV2Spec(workspace);
    await run(process.execPath, [codegenCli], { cwd: liability(), timeout: 120_000 });
    const types = await readFile(join(liability(), 'src/generated/openapi.ts'), 'utf8');
    expect(types).toMatch(/registrationNumber: string;/);
    v2Spec = join(scratch, 'liability-v2.json');
    await writeFile(
      v2Spec,
      JSON.stringify(await bundleSpec(join(workspace, 'specs/liability/openapi.yaml'))),
    );

    const verdicts = await runSpecDiffGate({ root: workspace });
    const changeset = changesetToAdd(verdicts);
    console.log(
      `pnpm spec:diff on the fixture v2 of liability:\n${formatVerdicts(verdicts)}\n${changeset}`,
    );
    expect(verdicts[0]?.problem).toMatch(
      /needs a major release from 1\.1\.0: specs\/liability\/openapi\.yaml is at 2\.0\.0, a new major version of the upstream/,
    );
    expect(changeset).toBe("---\n'@partner-apis/liability': major\n---");
    await writeFile(
      join(workspace, '.changeset/liability-v2.md'),
      `${changeset}\n\n### Breaking Changes\n\n` +
        "- Follows v2 of the liability quote API: `sellers.create` needs the seller's\n" +
        '  `registrationNumber`. v1 stays maintained under the `maintenance-v1` dist-tag for the\n' +
        '  six months the upstream runs both.\n',
    );
    expect((await runSpecDiffGate({ root: workspace }))[0]?.problem).toBeUndefined();

    await inWorkspace(changesetsBin, 'version');
    await inWorkspace(changelogCli);
    expect((await manifest()).version).toBe('2.0.0');
    expect(await changelog()).toContain('## 2.0.0\n\n### Breaking Changes\n\n- Follows v2');
    expect((await runSpecDiffGate({ root: workspace }))[0]?.problem).toBeUndefined();
    await build();
    fixtureGit(workspace, ['add', '.']);
    fixtureGit(workspace, ['commit', '-q', '--no-gpg-sign', '-m', 'Release liability 2.0.0']);
    fixtureGit(workspace, ['tag', '@partner-apis/liability@2.0.0']);

    const tag = publishTagOf(await listPublishablePackages(workspace));
    await publishPackage(liability(), tag);
    expect(await distTags('@partner-apis/liability')).toMatchObject({ latest: '2.0.0' });
    released.v2 = true;
  }, 300_000);

  it('a fix to v1 is released on its maintenance line while 2.0.0 stays latest', async () => {
    expect(released.v2, 'v2 was not released: see the test before').toBe(true);
    fixtureGit(workspace, [
      'checkout',
      '-q',
      '-b',
      'maintenance/liability-v1',
      `@partner-apis/liability@${V1}`,
    ]);
    const specPath = join(workspace, 'specs/liability/openapi.yaml');
    const spec = /** @type {Record<string, any>} */ (parseYaml(await readFile(specPath, 'utf8')));
    spec.components.schemas.Seller.properties.registrationNumber.description =
      'The number of the seller in its company register, with the register type (HRB 214477).';
    await writeFile(specPath, `${JSON.stringify(spec, null, 2)}\n`);
    await run(process.execPath, [codegenCli], { cwd: liability(), timeout: 120_000 });
    await writeFile(
      join(workspace, '.changeset/liability-v1-fix.md'),
      "---\n'@partner-apis/liability': patch\n---\n\n### Bugs Fixed\n\n" +
        '- `Seller.registrationNumber` says which number it is, with an example.\n',
    );
    const unmarked = await runSpecDiffGate({ root: workspace });
    expect(unmarked[0]?.problem).toMatch(/maintenance release of v1 while 2\.0\.0 is out/);

    await writeFile(
      join(liability(), 'package.json'),
      JSON.stringify(
        { ...(await manifest()), publishConfig: { access: 'public', tag: 'maintenance-v1' } },
        null,
        2,
      ),
    );
    expect((await runSpecDiffGate({ root: workspace }))[0]).toMatchObject({
      base: `@partner-apis/liability@${V1}`,
      nextVersion: V1_FIX,
      problem: undefined,
    });
    await inWorkspace(changesetsBin, 'version');
    await inWorkspace(changelogCli);
    expect((await manifest()).version).toBe(V1_FIX);
    expect(await changelog()).toContain(
      `## ${V1_FIX}\n\n### Bugs Fixed\n\n- \`Seller.registrationNumber\``,
    );
    await build();

    const tag = publishTagOf(await listPublishablePackages(workspace));
    expect(tag).toBe('maintenance-v1');
    await publishPackage(liability(), tag);
    expect(await distTags('@partner-apis/liability')).toMatchObject({
      latest: '2.0.0',
      'maintenance-v1': V1_FIX,
    });
    released.v1Fix = true;
  }, 300_000);

  it('a fresh project installs v1 and v2 side by side and calls both against the sandbox', async () => {
    expect(released.v1Fix, 'the v1 fix was not released: see the test before').toBe(true);
    const app = await freshProject('two-majors');
    await runNpm(
      [
        'install',
        '@partner-apis/liability@latest',
        'liability-v1@npm:@partner-apis/liability@maintenance-v1',
        '--ignore-scripts',
      ],
      { cwd: app, env: npmEnv },
    );
    const installed = async (/** @type {string} */ name) =>
      JSON.parse(await readFile(join(app, 'node_modules', name, 'package.json'), 'utf8')).version;
    expect(await installed('@partner-apis/liability')).toBe('2.0.0');
    expect(await installed('liability-v1')).toBe(V1_FIX);

    await writeFile(join(app, 'consumer.ts'), twoMajorsConsumer);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
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

    const host = join(scratch, 'sandbox-host');
    await writeFile(join(host, 'start-two-majors.mjs'), twoMajorsSandboxHost);
    const credentials = {
      LIABILITY_CLIENT_ID: 'rehearsal-client',
      LIABILITY_CLIENT_SECRET: randomBytes(18).toString('hex'),
    };
    const server = spawn(process.execPath, ['start-two-majors.mjs'], {
      cwd: host,
      env: { ...process.env, ...credentials, LIABILITY_V2_SPEC: v2Spec },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const urls = JSON.parse((await waitForLine(server, /^READY /, 60_000)).slice(6));
      const { stdout } = await run(process.execPath, ['out/consumer.js'], {
        cwd: app,
        timeout: 60_000,
        env: {
          ...process.env,
          ...credentials,
          LIABILITY_V1_URL: urls[1],
          LIABILITY_V2_URL: urls[2],
        },
      });
      const printed = JSON.parse(stdout);
      expect(printed).toMatchObject({ v2Number: 'HRB 214477' });
      expect(printed.v1).toEqual(expect.any(String));
      expect(printed.v2).toEqual(expect.any(String));
      expect(printed.v1).not.toBe(printed.v2);
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  }, 240_000);
});
