import type * as SandboxPackage from '@partner-apis/sandbox';
import type { Sandbox } from '@partner-apis/sandbox';
import { loadOptional } from './optional-packages.js';
import type { RunningService } from './processes.js';

/** What the sandbox host answers once started: its URLs and credentials, or why it cannot start. */
export type SandboxHostInfo =
  | (Pick<Sandbox, 'urls' | 'credentials' | 'fixtures'> & { unavailable?: undefined })
  | { unavailable: string };

/**
 * Runs `startSandbox(options)` in its own process, so the server's CPU is not the client's; the
 * parent drives it (`stats`, `fault`, `revokeKey`, …) through calls.
 */
export async function serve(options: unknown): Promise<RunningService> {
  const sandboxModule = await loadOptional<typeof SandboxPackage>('@partner-apis/sandbox');
  if (typeof sandboxModule === 'string') {
    return {
      info: { unavailable: sandboxModule },
      call: () => Promise.reject(new Error(sandboxModule)),
      close: async () => undefined,
    };
  }
  const sandbox = await sandboxModule.startSandbox(
    (options ?? {}) as Parameters<typeof sandboxModule.startSandbox>[0],
  );
  return {
    info: { urls: sandbox.urls, credentials: sandbox.credentials, fixtures: sandbox.fixtures },
    async call(method, args) {
      // The server's own CPU time, so a scenario can tell a busy server from a busy client.
      if (method === 'cpuUsage') return process.cpuUsage();
      const member = (sandbox as unknown as Record<string, unknown>)[method];
      if (typeof member !== 'function') throw new Error(`the sandbox has no method ${method}`);
      return (member as (...values: unknown[]) => unknown).apply(sandbox, args);
    },
    close: () => sandbox.close(),
  };
}
