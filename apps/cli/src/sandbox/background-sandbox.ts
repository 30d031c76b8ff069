import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Sandbox } from '@partner-apis/sandbox';

/** What `partner-apis sandbox start` leaves for later commands: where it listens, how to log in. */
export interface BackgroundSandbox {
  readonly pid: number;
  readonly startedAt: string;
  readonly urls: Sandbox['urls'];
  readonly credentials: Sandbox['credentials'];
}

/**
 * Where the state of the background sandbox is kept: `$XDG_STATE_HOME/partner-apis/sandbox.json`,
 * else `~/.local/state/partner-apis/sandbox.json`.
 */
export function backgroundSandboxFile(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.XDG_STATE_HOME || (env.HOME ? join(env.HOME, '.local', 'state') : undefined);
  return base === undefined ? undefined : join(base, 'partner-apis', 'sandbox.json');
}

/**
 * Records a started sandbox. The file holds its (sandbox-only) credentials, so only the user
 * may read it.
 */
export async function writeBackgroundSandbox(
  file: string,
  state: BackgroundSandbox,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.partial`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

function isState(value: unknown): value is BackgroundSandbox {
  const state = value as Partial<BackgroundSandbox> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    Number.isInteger(state.pid) &&
    typeof state.urls?.admin === 'string' &&
    typeof state.credentials === 'object'
  );
}

async function answers(state: BackgroundSandbox): Promise<boolean> {
  try {
    const response = await fetch(`${state.urls.admin}/stats`, {
      signal: AbortSignal.timeout(2000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The background sandbox, if one is recorded and answers. A record whose sandbox does not answer
 * (the machine restarted, the process was killed) is removed.
 */
export async function findBackgroundSandbox(
  file: string | undefined,
): Promise<BackgroundSandbox | undefined> {
  if (file === undefined) return undefined;
  let state: unknown;
  try {
    state = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (isState(state) && (await answers(state))) return state;
  await unlink(file).catch(() => {});
  return undefined;
}

/**
 * Removes the record, synchronously (for an exit handler), when it still names process `pid`:
 * a later start may have replaced it.
 */
export function forgetBackgroundSandbox(file: string, pid: number): void {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<BackgroundSandbox>;
    if (state.pid === pid) unlinkSync(file);
  } catch {
    // Gone or unreadable: nothing of ours to remove.
  }
}
