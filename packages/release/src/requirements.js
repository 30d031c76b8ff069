// @ts-check
// What `pnpm check` needs beside Node and pnpm, ensured before any test runs: the fleet tests
// of packages/redis start a real redis-server on 127.0.0.1.
import { execFileSync } from 'node:child_process';

/** How to install redis-server where this cannot: one line, said before any test runs. */
export const REDIS_ADVICE =
  "pnpm check needs redis-server (the fleet tests of packages/redis start one on 127.0.0.1): install it with `sudo apt-get install redis-server` (Debian, Ubuntu), `brew install redis` (macOS) or your system's package, then run pnpm check again";

/**
 * What to do about redis-server: nothing when it is on the PATH, install Debian's package when
 * this process may (root, with apt-get), else stop with the advice.
 *
 * @example
 * redisPlan({ found: false, root: true, aptGet: true }); // 'install'
 * @param {{ found: boolean, root: boolean, aptGet: boolean }} machine
 * @returns {'ready' | 'install' | 'stop'}
 */
export function redisPlan(machine) {
  if (machine.found) return 'ready';
  return machine.root && machine.aptGet ? 'install' : 'stop';
}

/** @param {string} command */
function onPath(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure redis-server is installed, installing Debian's package where it may; returns the
 * line to print and stop with where it cannot, else undefined.
 *
 * @example
 * const problem = ensureRedis();
 * @returns {string | undefined}
 */
export function ensureRedis() {
  const plan = redisPlan({
    found: onPath('redis-server'),
    root: process.getuid?.() === 0,
    aptGet: onPath('apt-get'),
  });
  if (plan === 'ready') return undefined;
  if (plan === 'stop') return REDIS_ADVICE;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], {
      stdio: 'ignore',
      env,
    });
  } catch {
    return REDIS_ADVICE;
  }
  return onPath('redis-server') ? undefined : REDIS_ADVICE;
}
