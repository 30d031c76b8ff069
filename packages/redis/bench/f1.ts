// Bench F1: fleet mode against the sandbox's rolling-window counter, with a real redis-server on
// 127.0.0.1 and real processes. Every phase is bounded in time; prints counts and ratios, and
// for the fault runs the worst run, not the median.
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { clientIdHeaders, createTokenCache } from '@partner-apis/auth';
import {
  createClientPipeline,
  type CustomRateLimit,
  type FleetRateScope,
} from '@partner-apis/core';
import { createRedisFleet } from '@partner-apis/redis';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { runFleet, type FleetRun } from '../src/fleet-run.fixture.js';
import { startRedisServer, type RedisServer } from '../src/redis-server.fixture.js';

const PROCESSES = 8;
const SILVER = 10;
/** Calls per process in the fault rows, as the issue measured them. */
const FAULT_CALLS = 30;
/** When Redis dies, after the processes' common start; it comes back empty 2 s later. */
const FAULT_MOMENTS_MS = [0, 500, 1000, 2000, 5000];
const DOWN_MS = 2000;
/** Fault runs per number of processes, spread evenly over the moments. */
const FAULT_RUNS: readonly (readonly [number, number])[] = [
  [8, 20],
  [16, 5],
];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The scope core hands a fleet, with core's own in-process limiter as `localLimiter`. */
function pipelineScope(rate: CustomRateLimit): FleetRateScope {
  let captured: FleetRateScope | undefined;
  createClientPipeline({
    baseUrl: 'http://127.0.0.1',
    auth: clientIdHeaders({ clientId: 'cost', clientSecret: 'not-a-secret' }),
    rateLimit: rate,
    fleet: {
      rateLimiter(scope) {
        captured = scope;
        return scope.localLimiter(rate);
      },
      tokenCache: createTokenCache(),
      close: async () => undefined,
    },
  });
  if (captured === undefined) throw new Error('the pipeline asked for no limiter');
  return captured;
}

async function costPerCall(redis: RedisServer) {
  // A burst as large as the run, so the in-process limiter never sleeps: only its cost shows.
  const rate = { requestsPerSecond: 1e6, burst: 1e6 };
  const scope = pipelineScope(rate);
  const fleet = createRedisFleet({
    url: redis.url,
    keyPrefix: `f1-cost-${randomBytes(4).toString('hex')}:`,
  });
  const signal = new AbortController().signal;
  const shared = fleet.rateLimiter(scope);
  const inProcess = scope.localLimiter(rate);
  const calls = 3000;
  const measure = async (take: () => unknown) => {
    for (let i = 0; i < 200; i += 1) await take();
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (let i = 0; i < calls; i += 1) await take();
    const used = process.cpuUsage(cpu);
    return {
      micros: Number(process.hrtime.bigint() - started) / 1000 / calls,
      cpuMicros: (used.user + used.system) / calls,
    };
  };
  try {
    return {
      fleet: await measure(() => shared.take(signal)),
      local: await measure(() => inProcess.take(signal)),
    };
  } finally {
    await fleet.close();
  }
}

/** `a / b` to two places; `1.00x` when both are 0, `+a` when only `b` is. */
function ratio(a: number, b: number): string {
  if (b === 0) return a === 0 ? '1.00x' : `+${a}`;
  return `${(a / b).toFixed(2)}x`;
}

/** One run after the sandbox's rolling window emptied, so that it counts only this run. */
async function quietRun(sb: Sandbox, options: Parameters<typeof runFleet>[1]): Promise<FleetRun> {
  await wait(1100);
  return runFleet(sb, options);
}

/**
 * A healthy run of `processes` processes × 2 lanes × 30 calls through one fleet, then `runs`
 * runs with Redis killed at each moment in turn and restarted, empty, 2 s later.
 */
async function faultRows(sb: Sandbox, redis: RedisServer, processes: number, runs: number) {
  const task = { redis, processes, calls: FAULT_CALLS, concurrency: 2 };
  const healthy = await quietRun(sb, task);
  const faults = [];
  for (let run = 0; run < runs; run += 1) {
    const atMs = FAULT_MOMENTS_MS[run % FAULT_MOMENTS_MS.length]!;
    const fault = await quietRun(sb, {
      ...task,
      fault: { kind: 'outage', atMs, downMs: DOWN_MS },
    });
    faults.push({ atMs, ...fault, vsHealthy: fault.perSecond / healthy.perSecond });
  }
  return { healthy, faults };
}

async function main(): Promise<void> {
  const redis = await startRedisServer();
  const sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'silver' } } });
  try {
    // Warm the sandbox's validators, then let its window empty.
    await runFleet(sb, { processes: PROCESSES });
    await runFleet(sb, { kind: 'exposure', processes: PROCESSES });

    const a = await quietRun(sb, { processes: PROCESSES, durationMs: 4000, concurrency: 2 });
    const f = await quietRun(sb, { redis, processes: PROCESSES, durationMs: 6000, concurrency: 2 });
    const [load] = loadavg();
    console.log(`machine: load average ${load?.toFixed(1)} on ${availableParallelism()} cores`);
    console.log(
      `F1 silver tier (${SILVER}/s), ${PROCESSES} processes, sandbox rolling-window counter`,
    );
    console.log(
      `  alone (no fleet):  ${a.tooManyRequests} x 429, ${a.perSecond.toFixed(2)} calls/s, ${a.failed} calls failed`,
    );
    console.log(
      `  fleet on Redis:    ${f.tooManyRequests} x 429, ${f.perSecond.toFixed(2)} calls/s ` +
        `(${(f.perSecond / SILVER).toFixed(2)} of the tier), ${f.failed} calls failed, ${f.ok} ok, ` +
        `${f.degraded} processes degraded`,
    );

    const coldAlone = await runFleet(sb, { kind: 'exposure', processes: PROCESSES });
    const coldFleet = await runFleet(sb, { kind: 'exposure', redis, processes: PROCESSES });
    console.log(`F1 ${PROCESSES} cold exposure processes`);
    console.log(`  alone (no fleet):  ${coldAlone.tokenIssues} token requests`);
    console.log(
      `  fleet on Redis:    ${coldFleet.tokenIssues} token request(s), ${coldFleet.failed} calls failed, ` +
        `${coldFleet.degraded} processes degraded`,
    );

    console.log(
      `F1 Redis killed ${FAULT_MOMENTS_MS.map((ms) => ms / 1000).join(', ')} s after the start, ` +
        `restarted empty ${DOWN_MS / 1000} s later (silver, ${FAULT_CALLS} calls per process × 2 lanes; ` +
        'each run against the healthy run before them; the worst run counts)',
    );
    for (const [processes, runs] of FAULT_RUNS) {
      const { healthy, faults } = await faultRows(sb, redis, processes, runs);
      const worst = {
        tooManyRequests: Math.max(...faults.map((run) => run.tooManyRequests)),
        failed: Math.max(...faults.map((run) => run.failed)),
        vsHealthy: Math.min(...faults.map((run) => run.vsHealthy)),
      };
      console.log(
        `  ${String(processes).padStart(2)} processes, ${runs} runs: healthy ${healthy.tooManyRequests} x 429, ` +
          `${healthy.failed} failed, ${healthy.perSecond.toFixed(2)} calls/s; worst fault run ` +
          `${worst.tooManyRequests} x 429, ${worst.failed} failed, calls/s ${worst.vsHealthy.toFixed(2)}x`,
      );
      for (const run of faults) {
        console.log(
          `      at ${(run.atMs / 1000).toFixed(1)} s: ${run.tooManyRequests} x 429, ${run.failed} failed, ` +
            `${run.perSecond.toFixed(2)} calls/s (${ratio(run.perSecond, healthy.perSecond)}), ` +
            `onFleetDegraded in ${run.degraded}, onFleetRestored in ${run.restored} of ${processes}`,
        );
      }
    }

    const cost = await costPerCall(redis);
    console.log('F1 cost per call of the limiter (one process, sequential takes)');
    console.log(
      `  fleet: ${cost.fleet.micros.toFixed(1)} µs wall, ${cost.fleet.cpuMicros.toFixed(1)} µs CPU; ` +
        `in-process: ${cost.local.micros.toFixed(2)} µs wall, ${cost.local.cpuMicros.toFixed(2)} µs CPU ` +
        `(fleet/in-process CPU ${(cost.fleet.cpuMicros / cost.local.cpuMicros).toFixed(0)}x)`,
    );
  } finally {
    await sb.close();
    await redis.stop();
  }
}

await main();
