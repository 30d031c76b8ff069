// Bench F1: fleet mode against the sandbox's rolling-window counter, with a real redis-server on
// 127.0.0.1. Every phase is bounded in time; prints counts and ratios.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { clientIdHeaders, createTokenCache } from '@partner-apis/auth';
import {
  createClientPipeline,
  type CustomRateLimit,
  type FleetRateScope,
} from '@partner-apis/core';
import { createRedisFleet } from '@partner-apis/redis';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { startRedisServer, type RedisServer } from '../src/redis-server.fixture.js';
import type { WorkerReport, WorkerTask } from './f1-worker.js';

const PROCESSES = 8;
const SILVER = 10;
/** Calls per process in the fault rows, as the issue measured them. */
const FAULT_CALLS = 30;
const WORKER = fileURLToPath(new URL('./f1-worker.js', import.meta.url));

interface Phase {
  reports: WorkerReport[];
  startAt: number;
  tooManyRequests: number;
  tokenIssues: number;
}

/** One worker process: ready once it has built its client, then one report. */
function startWorker(task: WorkerTask) {
  const child = fork(WORKER, [JSON.stringify(task)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  let ready!: () => void;
  const readiness = new Promise<void>((resolve) => (ready = resolve));
  const report = new Promise<WorkerReport>((resolve, reject) => {
    child.on('message', (message: 'ready' | WorkerReport) => {
      if (message === 'ready') ready();
      else resolve(message);
    });
    child.once('exit', (code) => {
      clearTimeout(killer);
      reject(new Error(`a worker exited (${String(code)}) without a report`));
    });
  });
  return {
    ready: readiness,
    report,
    start: (startAt: number) => child.send({ startAt }),
  };
}

async function runProcesses(
  sb: Sandbox,
  overrides: Partial<WorkerTask> & Pick<WorkerTask, 'kind' | 'redisUrl'>,
  during?: (startAt: number) => Promise<void>,
  processes = PROCESSES,
): Promise<Phase> {
  sb.resetStats();
  const task: WorkerTask = {
    keyPrefix: `f1-${randomBytes(4).toString('hex')}:`,
    baseUrl: overrides.kind === 'approvals' ? sb.urls.approvals : sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials:
      overrides.kind === 'approvals' ? sb.credentials.approvals : sb.credentials.exposure,
    employee: sb.fixtures.employeeWithApprovals,
    durationMs: 0,
    concurrency: 1,
    ...overrides,
  };
  const workers = Array.from({ length: processes }, () => startWorker(task));
  await Promise.all(workers.map((worker) => worker.ready));
  const startAt = Date.now() + 200;
  for (const worker of workers) worker.start(startAt);
  await during?.(startAt);
  const reports = await Promise.all(workers.map((worker) => worker.report));
  const stats = sb.stats();
  return {
    reports,
    startAt,
    tooManyRequests: stats.totals.tooManyRequests,
    tokenIssues: stats.routes['auth.requestToken']?.tokenIssues ?? 0,
  };
}

function summary(phase: Phase) {
  const ok = phase.reports.reduce((sum, report) => sum + report.ok, 0);
  const failed = phase.reports.reduce((sum, report) => sum + report.failed, 0);
  const records = phase.reports.reduce((sum, report) => sum + report.records, 0);
  const endedAt = Math.max(...phase.reports.map((report) => report.lastEndedAt));
  const perSecond = ok / ((endedAt - phase.startAt) / 1000);
  const failures: Record<string, number> = {};
  for (const report of phase.reports) {
    for (const [name, count] of Object.entries(report.failures)) {
      failures[name] = (failures[name] ?? 0) + count;
    }
  }
  const degraded = phase.reports.filter((report) => report.degraded > 0).length;
  return { ok, failed, records, perSecond, failures, degraded };
}

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

/**
 * The same calls twice in a row, `processes` processes through one fleet: Redis healthy, then
 * Redis killed 1 s in and restarted, empty, 2 s later.
 */
async function faultRow(sb: Sandbox, redis: RedisServer, processes: number) {
  const task = {
    kind: 'approvals',
    redisUrl: redis.url,
    calls: FAULT_CALLS,
    concurrency: 2,
  } as const;
  const run = async (during?: (startAt: number) => Promise<void>) => {
    await wait(1100);
    const phase = await runProcesses(sb, task, during, processes);
    const sum = summary(phase);
    const restored = phase.reports.reduce((total, report) => total + report.restored, 0);
    return { ...sum, restored, tooManyRequests: phase.tooManyRequests };
  };
  const healthy = await run();
  const fault = await run(async (startAt) => {
    await wait(startAt + 1000 - Date.now());
    await redis.kill();
    await wait(2000);
    await redis.restart();
  });
  return { healthy, fault };
}

async function main(): Promise<void> {
  const redis = await startRedisServer();
  const sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'silver' } } });
  try {
    // Warm the sandbox's validators, then let its window empty.
    await runProcesses(sb, { kind: 'approvals', redisUrl: undefined });
    await runProcesses(sb, { kind: 'exposure', redisUrl: undefined });
    await wait(1100);

    const alone = await runProcesses(sb, {
      kind: 'approvals',
      redisUrl: undefined,
      durationMs: 4000,
      concurrency: 2,
    });
    await wait(1100);
    const shared = await runProcesses(sb, {
      kind: 'approvals',
      redisUrl: redis.url,
      durationMs: 6000,
      concurrency: 2,
    });
    const [load] = loadavg();
    console.log(`machine: load average ${load?.toFixed(1)} on ${availableParallelism()} cores`);
    const a = summary(alone);
    const f = summary(shared);
    console.log(
      `F1 silver tier (${SILVER}/s), ${PROCESSES} processes, sandbox rolling-window counter`,
    );
    console.log(
      `  alone (no fleet):  ${alone.tooManyRequests} x 429, ${a.perSecond.toFixed(2)} calls/s, ${a.failed} calls failed`,
    );
    console.log(
      `  fleet on Redis:    ${shared.tooManyRequests} x 429, ${f.perSecond.toFixed(2)} calls/s ` +
        `(${(f.perSecond / SILVER).toFixed(2)} of the tier), ${f.failed} calls failed, ${f.ok} ok, ` +
        `${f.degraded} processes degraded`,
    );

    const coldAlone = await runProcesses(sb, { kind: 'exposure', redisUrl: undefined });
    const coldFleet = await runProcesses(sb, { kind: 'exposure', redisUrl: redis.url });
    console.log(`F1 ${PROCESSES} cold exposure processes`);
    console.log(`  alone (no fleet):  ${coldAlone.tokenIssues} token requests`);
    console.log(
      `  fleet on Redis:    ${coldFleet.tokenIssues} token request(s), ${summary(coldFleet).failed} calls failed, ` +
        `${summary(coldFleet).degraded} processes degraded`,
    );

    console.log(
      `F1 Redis killed 1 s in, restarted empty 2 s later (silver, ${FAULT_CALLS} calls per process, ` +
        'against the healthy run just before it)',
    );
    for (const processes of [8, 16]) {
      const row = await faultRow(sb, redis, processes);
      console.log(
        `  ${String(processes).padStart(2)} processes: healthy ${row.healthy.tooManyRequests} x 429, ` +
          `${row.healthy.failed} failed, ${row.healthy.perSecond.toFixed(2)} calls/s; ` +
          `fault ${row.fault.tooManyRequests} x 429, ${row.fault.failed} failed, ` +
          `${row.fault.perSecond.toFixed(2)} calls/s`,
      );
      console.log(
        `               fault/healthy: 429s ${ratio(row.fault.tooManyRequests, row.healthy.tooManyRequests)}, ` +
          `failed ${ratio(row.fault.failed, row.healthy.failed)}, ` +
          `calls/s ${ratio(row.fault.perSecond, row.healthy.perSecond)}; ` +
          `onFleetDegraded in ${row.fault.degraded} of ${processes} processes, ` +
          `onFleetRestored in ${row.fault.restored}`,
      );
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
