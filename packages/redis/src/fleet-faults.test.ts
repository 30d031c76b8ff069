import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runFleet,
  startFleetWorkers,
  type FleetRunOptions,
  type FleetWorkers,
} from './fleet-run.fixture.js';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';

// Every run counts the calls a strict server of the silver tier would refuse, each seen the
// moment it was written: a server on this machine, busy with the same cores, reads requests
// late by more than any margin, which no client can make up for. The sandbox itself admits
// gold, so that its own late reading never answers a 429 the clients would then act on.

let redis: RedisServer;
let sb: Sandbox;
let pool: FleetWorkers;

beforeAll(async () => {
  redis = await startRedisServer();
  sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'gold' } } });
  pool = await startFleetWorkers(16);
  // The sandbox compiles its validators on the first calls; a run alone warms it up.
  await runFleet(sb, pool, { processes: 16, calls: 1 });
}, 120_000);
afterAll(async () => {
  pool?.close();
  await sb?.close();
  await redis?.stop();
});

/** Processes × 2 lanes of silver approvals calls through one fleet, at the default margin. */
function fleetRun(options: Omit<FleetRunOptions, 'redis' | 'concurrency'>) {
  return runFleet(sb, pool, { redis, concurrency: 2, ...options });
}

/** Shorter than a window: slots Redis granted before it died are still ahead when it is back. */
const DOWN_MS = 500;
const KILLS = [
  ...[8, 16].flatMap((processes) =>
    [250, 500, 1000].flatMap((atMs) => [1, 2].map((run) => ({ processes, atMs, run }))),
  ),
];

describe.skipIf(!runRedisTests)('a fleet that loses Redis in its first second', () => {
  it.each(KILLS)(
    '$processes processes, Redis killed at $atMs ms and back empty 0.5 s later: none refused (run $run)',
    { timeout: 120_000 },
    async ({ processes, atMs }) => {
      const run = await fleetRun({
        processes,
        // Until a window after Redis is back, and a second more.
        durationMs: atMs + DOWN_MS + 2500,
        fault: { kind: 'outage', atMs, downMs: DOWN_MS },
      });
      expect({ refused: run.tooManyRequests, failed: run.failed }).toEqual({
        refused: 0,
        failed: 0,
      });
      expect(run.degraded).toBe(processes);
      // Sharing resumed once Redis was back: calls went on after the outage.
      expect(run.restored).toBe(processes);
    },
  );
});

describe.skipIf(!runRedisTests)('a fleet whose Redis restarts too quickly to notice', () => {
  it('refuses none when Redis drops its data and every connection at once', async () => {
    // No command fails: each process sees its connection close and open again, and Redis's
    // answers tell it that Redis lost its data.
    const run = await fleetRun({
      processes: 8,
      durationMs: 3500,
      fault: { kind: 'wipe', atMs: 500, downMs: 0 },
    });
    expect({ refused: run.tooManyRequests, failed: run.failed }).toEqual({
      refused: 0,
      failed: 0,
    });
  });
});

describe.skipIf(!runRedisTests)('a healthy fleet', () => {
  it(
    'refuses none beside two processes that keep the cores busy',
    { timeout: 120_000 },
    async () => {
      const run = await fleetRun({ processes: 8, durationMs: 4000, cpuHogs: 2 });
      expect({ refused: run.tooManyRequests, failed: run.failed }).toEqual({
        refused: 0,
        failed: 0,
      });
      // A bound no busy machine misses: bench F1 measures the throughput.
      expect(run.ok).toBeGreaterThan(10);
    },
  );

  it(
    'counts the calls made at a looser tier when its processes switch to the stricter one',
    { timeout: 120_000 },
    async () => {
      const run = await fleetRun({ processes: 8, durationMs: 3000, goldFirst: true });
      expect({ refused: run.tooManyRequests, failed: run.failed }).toEqual({
        refused: 0,
        failed: 0,
      });
      expect(run.warnings).toBe(8);
    },
  );

  it(
    'keeps to the tier when one process alone loses Redis for 2 s',
    { timeout: 120_000 },
    async () => {
      // Past the tenth second, when the processes hold cells of their own.
      const run = await fleetRun({
        processes: 8,
        durationMs: 15_000,
        fault: { kind: 'partition', atMs: 10_500, downMs: 2000 },
      });
      expect({ refused: run.tooManyRequests, failed: run.failed }).toEqual({
        refused: 0,
        failed: 0,
      });
      expect(run.degraded).toBe(1);
    },
  );
});
