// Bench F1: fleet mode with a real redis-server on 127.0.0.1 and real processes against the
// sandbox. A strict server of the silver tier judges every approvals call the moment it is
// written (`runFleet`): the sandbox, on the same busy cores, reads its requests too late to
// judge them. Every phase is bounded in time; prints counts and ratios, and for the fault runs
// every run, not a median. `--quick` runs each fault once.
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { clientIdHeaders, createTokenCache } from '@partner-apis/auth';
import {
  createClientPipeline,
  type CustomRateLimit,
  type FleetRateScope,
} from '@partner-apis/core';
import { createRedisFleet } from '@partner-apis/redis';
import { startSandbox } from '@partner-apis/sandbox';
import {
  runFleet,
  startFleetWorkers,
  type FleetRun,
  type FleetRunOptions,
  type FleetWorkers,
} from '../src/fleet-run.fixture.js';
import { startRedisServer, type RedisServer } from '../src/redis-server.fixture.js';

const SILVER = 10;
/** The goal of a healthy fleet: calls per second as a share of the tier. */
const HEALTHY_TARGET = 0.9;
const SIZES = [8, 16];
/** When Redis dies, after the processes' common start; it comes back empty `DOWN_MS` later. */
const KILL_MOMENTS_MS = [250, 500, 1000];
const DOWN_MS = 500;
const REPEATS = process.argv.includes('--quick') ? 1 : 5;
/** Processes that keep a core busy each, in the runs beside a CPU hog. */
const CPU_HOGS = 2;

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

const load = () => loadavg()[0]?.toFixed(1) ?? '?';
const ofTier = (run: FleetRun) => (run.writtenPerSecond / SILVER).toFixed(2);

/** One line of a run: what the strict server refused, what failed, how fast calls went. */
function describeRun(run: FleetRun): string {
  return (
    `${run.tooManyRequests} x 429, ${run.failed} failed, ${run.ok} ok, ` +
    `${run.writtenPerSecond.toFixed(2)} calls/s (${ofTier(run)} of the tier)`
  );
}

async function main(): Promise<void> {
  const redis = await startRedisServer();
  // Gold at the sandbox: its own late reading must not answer a 429 the clients then act on.
  const sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'gold' } } });
  const pool: FleetWorkers = await startFleetWorkers(Math.max(...SIZES));
  const run = (options: FleetRunOptions) => runFleet(sb, pool, { concurrency: 2, ...options });
  try {
    // Warm the sandbox's validators and every process.
    await run({ processes: pool.workers.length, calls: 1 });

    console.log(`machine: load average ${load()} on ${availableParallelism()} cores`);
    console.log(
      `F1 silver tier (${SILVER}/s), 2 lanes per process, a strict server of the tier judging ` +
        'each call as it is written; healthy goal: at least ' +
        `${HEALTHY_TARGET} of the tier`,
    );
    const alone = await run({ processes: 8, durationMs: 4000 });
    console.log(`  8 processes alone (no fleet):   ${describeRun(alone)}`);
    for (const processes of SIZES) {
      const healthy = await run({ redis, processes, durationMs: 10_000 });
      const met = healthy.writtenPerSecond / SILVER >= HEALTHY_TARGET ? 'met' : 'NOT met';
      console.log(
        `  ${String(processes).padStart(2)} processes, fleet:           ${describeRun(healthy)}, ` +
          `goal ${met} (load ${load()})`,
      );
    }
    for (const processes of SIZES) {
      const hogged = await run({ redis, processes, durationMs: 10_000, cpuHogs: CPU_HOGS });
      console.log(
        `  ${String(processes).padStart(2)} processes beside ${CPU_HOGS} CPU hogs: ${describeRun(hogged)} ` +
          `(load ${load()})`,
      );
    }
    const switched = await run({ redis, processes: 8, durationMs: 4000, goldFirst: true });
    console.log(
      `  8 processes, one call at gold, then silver: ${describeRun(switched)}, ` +
        `${switched.warnings} stricter-tier warnings`,
    );

    // Processes of their own, which hold no token yet.
    const cold = async (options: Omit<FleetRunOptions, 'processes'>) => {
      const fresh = await startFleetWorkers(8);
      try {
        return await runFleet(sb, fresh, { kind: 'exposure', processes: 8, ...options });
      } finally {
        fresh.close();
      }
    };
    const coldAlone = await cold({});
    const coldFleet = await cold({ redis });
    console.log('F1 8 cold exposure processes');
    console.log(`  alone (no fleet):  ${coldAlone.tokenIssues} token requests`);
    console.log(
      `  fleet on Redis:    ${coldFleet.tokenIssues} token request(s), ${coldFleet.failed} calls failed, ` +
        `${coldFleet.degraded} processes degraded`,
    );

    console.log(
      `F1 Redis killed ${KILL_MOMENTS_MS.map((ms) => ms / 1000).join(', ')} s after the start, ` +
        `restarted empty ${DOWN_MS / 1000} s later, calls until 2.5 s after; ${REPEATS} runs each`,
    );
    for (const processes of SIZES) {
      for (const atMs of KILL_MOMENTS_MS) {
        const runs: FleetRun[] = [];
        for (let repeat = 0; repeat < REPEATS; repeat += 1) {
          runs.push(
            await run({
              redis,
              processes,
              durationMs: atMs + DOWN_MS + 2500,
              fault: { kind: 'outage', atMs, downMs: DOWN_MS },
            }),
          );
        }
        const refused = runs.map((each) => each.tooManyRequests);
        const failed = runs.reduce((total, each) => total + each.failed, 0);
        const rates = runs.map((each) => each.writtenPerSecond.toFixed(1));
        console.log(
          `  ${String(processes).padStart(2)} processes at ${(atMs / 1000).toFixed(2)} s: 429s per run ` +
            `${refused.join(', ')}; ${failed} failed; calls/s ${rates.join(', ')} (load ${load()})`,
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
    pool.close();
    await sb.close();
    await redis.stop();
  }
}

await main();
