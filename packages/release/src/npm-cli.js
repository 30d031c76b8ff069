// @ts-check
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The environment for an npm child process: this one's, without the `npm_*` variables that a
 * surrounding `pnpm run` sets (they would point npm at pnpm's settings), and with npm's own
 * cache in `cache` so a run never reads a tarball another run cached under the same version.
 *
 * @param {string} cache
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function npmEnvironment(cache, extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  return {
    ...env,
    npm_config_cache: cache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

/**
 * Runs npm and returns its stdout; on failure, the error names the command and npm's stderr.
 *
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, timeoutMs?: number }} options
 * @returns {Promise<string>}
 */
export async function runNpm(args, { cwd, env, timeoutMs = 180_000 }) {
  try {
    const { stdout } = await run('npm', args, {
      cwd,
      env,
      timeout: timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
      encoding: 'utf8',
    });
    return stdout;
  } catch (error) {
    const stderr = /** @type {{ stderr?: string }} */ (error).stderr ?? '';
    throw new Error(`npm ${args[0]} failed in ${cwd}: ${stderr.slice(-3_000) || error}`, {
      cause: error,
    });
  }
}
