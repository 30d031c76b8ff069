import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** A runtime the examples run on; its binary comes from the npm package of the same name. */
export type RuntimeName = 'bun' | 'deno' | 'workerd';

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** Where each npm package puts its native binary once its install script ran. */
const BINARIES: Record<RuntimeName, () => string> = {
  bun: () => join(packageDir('bun'), 'bin', 'bun.exe'),
  deno: () => join(packageDir('deno'), 'deno'),
  workerd: () => (require('workerd') as { default: string }).default,
};

/** The version each package pins, as `pnpm-workspace.yaml`'s catalog has it. */
function pinnedVersion(name: RuntimeName): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * The path of a runtime's binary, after checking that it runs and is the pinned version. A
 * missing runtime is an error, never a reason to skip: CI installs all three with `pnpm install`.
 */
export async function runtimeBinary(name: RuntimeName): Promise<string> {
  let binary: string;
  let printed: string;
  try {
    binary = BINARIES[name]();
    ({ stdout: printed } = await run(binary, ['--version'], { timeout: 60_000 }));
  } catch (error) {
    throw new Error(
      `${name} is not installed or does not run here; \`pnpm install\` installs it (its ` +
        `install script must be allowed in onlyBuiltDependencies): ${String(error)}`,
      { cause: error },
    );
  }
  // workerd prints its compatibility date, 2026-11-17 for 1.20261117.1.
  const expected =
    name === 'workerd'
      ? pinnedVersion(name)
          .split('.')[1]
          ?.replace(/^(\d{4})(\d\d)(\d\d)$/, '$1-$2-$3')
      : pinnedVersion(name);
  if (expected === undefined || !printed.includes(expected)) {
    throw new Error(`${name} --version printed ${printed.trim()}, not ${expected}`);
  }
  return binary;
}

/** What a child process printed, for the assertion message of a failed run. */
export interface RunOutput {
  code: number;
  output: string;
}

/**
 * Runs `binary` with `args` in `cwd`, never throwing: the exit code and everything printed.
 */
export async function runChild(
  binary: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunOutput> {
  try {
    const { stdout, stderr } = await run(binary, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    const code = typeof failed.code === 'number' ? failed.code : 1;
    return { code, output: `${failed.stdout ?? ''}${failed.stderr ?? String(error)}` };
  }
}
