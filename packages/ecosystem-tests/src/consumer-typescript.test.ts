// CommonJS TypeScript projects: one made by `npm init -y && npx tsc --init`, one with
// `module: node16`, each in a CommonJS package (`npm init -y` writes `"type": "commonjs"`), with
// @partner-apis/exposure installed from a local registry. `tsc` refuses the README's first
// example there (TS1295, TS1479); after the one change the README's install section names, it
// compiles, and the compiled example passes under vitest against the sandbox. A third project,
// with `moduleResolution: node`, type-checks a client, an error class and a subpath export.
import { execFile } from 'node:child_process';
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishToLocalRegistry, type LocalRegistryInstall } from './local-install.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const README = join(packageRoot, '..', 'exposure', 'README.md');
const TSC = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

let published: LocalRegistryInstall | undefined;

beforeAll(async () => {
  published = await publishToLocalRegistry('@partner-apis/exposure');
}, 300_000);

afterAll(async () => {
  await published?.close();
}, 30_000);

/** The install section of the exposure README. */
async function installSection(): Promise<string> {
  const readme = await readFile(README, 'utf8');
  return readme.split(/^## Install$/m)[1]?.split(/^## /m)[0] ?? '';
}

/** The README's first example, the vitest test a user copies. */
async function firstExample(): Promise<string> {
  const readme = await readFile(README, 'utf8');
  const code = readme.split(/^## Example$/m)[1]?.match(/^```ts\n([\s\S]*?)^```$/m)?.[1];
  if (code === undefined) throw new Error(`${README} has no \`\`\`ts block under ## Example`);
  return code;
}

// The project's own vitest runs as a user's would: not inside this one, and without colours.
const env = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|FORCE_COLOR)/.test(k)),
  ),
  NO_COLOR: '1',
};

/** Runs `node args` in `cwd`, never throwing: the exit code and everything printed. */
async function node(args: readonly string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env, timeout: 150_000 });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    const code = typeof failed.code === 'number' ? failed.code : 1;
    return { code, output: `${failed.stdout ?? ''}${failed.stderr ?? String(error)}` };
  }
}

/**
 * A CommonJS project as `npm init -y` and `tsc --init` (with `extra` flags) make it, with
 * exposure installed from the registry and the example's dev dependencies, vitest and the
 * sandbox, linked from this workspace.
 */
async function project(name: string, extra: readonly string[]): Promise<string> {
  if (published === undefined) throw new Error('the local registry did not start');
  const dir = join(published.scratch, name);
  await mkdir(join(dir, 'node_modules', '@partner-apis'), { recursive: true });
  await published.npm(['init', '-y'], dir);
  expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))).toMatchObject({
    type: 'commonjs',
  });
  expect((await node([TSC, '--init', ...extra], dir)).code).toBe(0);
  await published.install(dir, ['@partner-apis/exposure']);
  const sandbox = dirname(require.resolve('@partner-apis/sandbox/package.json'));
  const vitest = await realpath(join(packageRoot, 'node_modules', 'vitest'));
  await symlink(sandbox, join(dir, 'node_modules', '@partner-apis', 'sandbox'), 'dir');
  await symlink(vitest, join(dir, 'node_modules', 'vitest'), 'dir');
  return dir;
}

describe.each([
  { name: 'npm init -y && npx tsc --init', flags: [], refusal: 'TS1295' },
  { name: 'module: node16', flags: ['--module', 'node16'], refusal: 'TS1479' },
])('a CommonJS TypeScript project ($name)', ({ name, flags, refusal }) => {
  it("compiles and runs the README's first example after the install section's change", async () => {
    const dir = await project(refusal, flags);
    await writeFile(join(dir, 'example.test.ts'), await firstExample());
    const refused = await node([TSC, '--noEmit'], dir);
    expect(refused.output, name).toContain(`error ${refusal}`);

    const change = /`npm (pkg set [^`]+)`/.exec(await installSection())?.[1];
    expect(change, 'the install section names no `npm pkg set`').toBeDefined();
    await published?.npm(change?.split(' ') ?? [], dir);

    const compiled = await node([TSC], dir);
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    const tested = await node([vitest, 'run', 'example.test.js'], dir);
    expect(tested.output).toMatch(/Tests\s+2 passed/);
    expect(tested.code, tested.output).toBe(0);
  });
});

// `moduleResolution: node` reads `types` and `main`, not `exports`: each package's root resolves,
// and so does a subpath, through the package's folder of that name (a package.json whose `types`
// points into `dist/`): the validator of `@partner-apis/exposure/statement-of-values`, and the
// error classes a service re-exports from `@partner-apis/errors/classes`.
it('resolves a service, its error classes and a subpath under moduleResolution node', async () => {
  const flags = ['--module', 'commonjs', '--moduleResolution', 'node10'];
  const dir = await project('node10', [...flags, '--verbatimModuleSyntax', 'false']);
  await writeFile(
    join(dir, 'index.ts'),
    `import { createExposureClient, NotFoundError } from '@partner-apis/exposure';
import { validateStatementOfValues } from '@partner-apis/exposure/statement-of-values';

export const client = createExposureClient({
  baseUrl: 'https://exposure.example.com',
  tokenUrl: 'https://auth.example.com/login/connect/token',
  credentials: { clientId: 'id', clientSecret: 'secret', subscriptionKeys: { primary: 'key' } },
});
export const notFound = (error: unknown): boolean => error instanceof NotFoundError;
export const valid: boolean = validateStatementOfValues({}).valid;
`,
  );
  const compiled = await node([TSC, '--noEmit'], dir);
  expect(compiled.output).toBe('');
  expect(compiled.code).toBe(0);
});
