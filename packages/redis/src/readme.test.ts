import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createApprovalsClient } from '@partner-apis/approvals';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { specDocuments } from '@partner-apis/sandbox/specs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The `js` block of the README's example section, as a user copies it. */
async function readmeWorker(): Promise<string> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Example'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (block?.[1] === undefined) throw new Error('the README has no js example');
  return block[1];
}

/**
 * The approvals spec with a silver tier of 15 calls a second at the gateway, while the clients
 * keep to the 10 of their own spec. Two processes that share the tier send fewer than 11 a
 * second together, so only a stall of over half a second on the way can bunch 16 into one;
 * two that do not share it send 19 a second and meet 429s whatever the machine's load.
 */
function upstreamWithRoom(): object {
  const document = structuredClone(specDocuments.approvals) as { info: Record<string, unknown> };
  document.info['x-rate-limit-tiers'] = { bronze: 1, silver: 15, gold: 100 };
  return document;
}

let redis: RedisServer;
let sb: Sandbox;
beforeAll(async () => {
  if (!runRedisTests) return;
  redis = await startRedisServer();
  sb = await startSandbox({
    port: 0,
    credentials: { approvals: { tier: 'silver' } },
    specs: { approvals: upstreamWithRoom() },
  });
  // The sandbox compiles its validators on the first call and answers it late: warm it up.
  await createApprovalsClient({
    baseUrl: sb.urls.approvals,
    credentials: sb.credentials.approvals,
  }).approvals.list(sb.fixtures.employeeWithApprovals);
});
afterAll(async () => {
  await sb?.close();
  await redis?.stop();
});

describe.skipIf(!runRedisTests)('README example', () => {
  // bench F1 counts the fleet's 429s at the tier's own rate, on an idle machine.
  it('runs in two processes that keep to one tier together', async () => {
    // Let the sandbox's window empty, so that it counts only the example's calls.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    sb.resetStats();
    // A folder outside the repository whose node_modules holds the two packages the example
    // imports, so they resolve as they do for a user.
    const folder = await mkdtemp(join(tmpdir(), 'partner-apis-fleet-readme-'));
    try {
      const scope = join(folder, 'node_modules', '@partner-apis');
      await mkdir(scope, { recursive: true });
      await symlink(packageDir, join(scope, 'redis'), 'dir');
      await symlink(
        join(packageDir, 'node_modules/@partner-apis/approvals'),
        join(scope, 'approvals'),
        'dir',
      );
      const worker = join(folder, 'worker.mjs');
      await writeFile(worker, await readmeWorker());
      const env = {
        ...process.env,
        REDIS_URL: redis.url,
        EMPLOYEE: sb.fixtures.employeeWithApprovals,
        PARTNER_APIS_APPROVALS_BASE_URL: sb.urls.approvals,
        PARTNER_APIS_APPROVALS_CLIENT_ID: sb.credentials.approvals.clientId,
        PARTNER_APIS_APPROVALS_CLIENT_SECRET: sb.credentials.approvals.clientSecret,
        PARTNER_APIS_APPROVALS_TIER: 'silver',
      };
      const outputs = await Promise.all(
        [1, 2].map(() => run(process.execPath, [worker], { env, timeout: 60_000 })),
      );
      for (const { stdout, stderr } of outputs) {
        expect(stdout.trim().split('\n')).toHaveLength(15);
        expect(stderr).toBe('');
      }
      expect(sb.stats().totals.tooManyRequests).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
