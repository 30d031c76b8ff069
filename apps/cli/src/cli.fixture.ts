import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a run of the CLI left: its exit code and everything it wrote. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, `node dist/bin.js`, as a user runs it. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/**
 * Runs the built CLI in a child process with exactly `env` (nothing of the developer's shell
 * leaks in) in `cwd`, and resolves with what it left, whatever its exit code.
 *
 * @example
 * const { code, stdout } = await runBuiltCli(['--version'], { PATH: process.env.PATH ?? '' }, dir);
 */
export function runBuiltCli(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env, cwd, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The arguments of `liability sellers create` for the seller every CLI test creates, printed as
 * JSON; `extra` arguments follow.
 *
 * @example
 * await runBuiltCli(createSeller('--major', '2'), env, dir);
 */
export function createSeller(...extra: string[]): string[] {
  return [
    'liability',
    'sellers',
    'create',
    '--name',
    'Nordlicht Home GmbH',
    '--country',
    'DE',
    '--format',
    'json',
    ...extra,
  ];
}
