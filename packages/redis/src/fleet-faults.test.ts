import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFleet, type Fault } from './fleet-run.fixture.js';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';

let redis: RedisServer;
let sb: Sandbox;

beforeAll(async () => {
  redis = await startRedisServer();
  sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'silver' } } });
  // The sandbox compiles its validators on the first calls; a run alone warms it up.
  await runFleet(sb, { processes: 1, calls: 2 });
});
afterAll(async () => {
  await sb?.close();
  await redis?.stop();
});

/** 8 processes × 2 lanes of silver approvals calls, until 4 s after Redis is back. */
async function faultRun(fault: Fault) {
  // Let the sandbox's rolling window empty, so that it counts only this run's calls.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const run = await runFleet(sb, {
    redis,
    processes: 8,
    concurrency: 2,
    durationMs: Math.max(fault.atMs, 0) + fault.downMs + 4000,
    // Wide enough that a call that reaches the sandbox late on a busy machine (or a sandbox
    // that reads its requests late) is never counted with the calls after it: these runs are
    // about the faults, not the margin.
    windowMarginMs: 500,
    fault,
  });
  return { atMs: fault.atMs, tooManyRequests: run.tooManyRequests, failed: run.failed, run };
}

describe.skipIf(!runRedisTests)('a fleet of 8 processes that loses Redis', () => {
  it(
    'keeps to the tier whenever Redis dies, from before the first call to after the tenth second',
    { timeout: 600_000 },
    async () => {
      // Dense where the processes are still joining, where a storm hit one run in four.
      const moments = [-100, 0, 200, 400, 600, 800, 1000, 1400, 2000, 5000, 10_500];
      const runs = [];
      for (const atMs of moments) runs.push(await faultRun({ kind: 'outage', atMs, downMs: 2000 }));
      expect(runs.filter((run) => run.tooManyRequests > 0 || run.failed > 0)).toEqual([]);
      for (const { run } of runs) {
        expect(run.degraded).toBe(8);
        // Sharing resumed once Redis was back: calls went on after the outage (at 6.7/s with
        // the 500 ms margin, for at least 1.5 s after the longest hand-back).
        expect(run.ok).toBeGreaterThan(15);
      }
    },
  );

  it(
    'keeps to the tier when one process alone loses Redis for 2 s',
    { timeout: 120_000 },
    async () => {
      // Past the tenth second, when the processes hold cells of their own.
      const { tooManyRequests, failed, run } = await faultRun({
        kind: 'partition',
        atMs: 10_500,
        downMs: 2000,
      });
      expect({ tooManyRequests, failed }).toEqual({ tooManyRequests: 0, failed: 0 });
      expect(run.degraded).toBe(1);
    },
  );
});
