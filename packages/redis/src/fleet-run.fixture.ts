// Runs a fleet of real processes against the sandbox and a real redis-server, with Redis lost
// at a chosen moment, for the fault tests and bench F1.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { Sandbox } from '@partner-apis/sandbox';
import type { RedisServer } from './redis-server.fixture.js';

/** What one worker process is told to do. */
export interface WorkerTask {
  kind: 'approvals' | 'exposure';
  /** Without it, the process paces itself alone, as before fleet mode. */
  redisUrl: string | undefined;
  keyPrefix: string;
  baseUrl: string;
  tokenUrl: string;
  credentials: object;
  employee: string;
  /** How long to keep calling, when `calls` is not given. */
  durationMs: number;
  /** How many calls the process makes in all, whatever they take; overrides `durationMs`. */
  calls?: number | undefined;
  concurrency: number;
  /** The fleet's `windowMarginMs`; its default when not given. */
  windowMarginMs?: number | undefined;
}

/** What one worker process saw. */
export interface WorkerReport {
  ok: number;
  /** Answers that carry the record asked for (the employee's approvals, or one location). */
  records: number;
  failed: number;
  failures: Record<string, number>;
  lastEndedAt: number;
  degraded: number;
  restored: number;
}

/**
 * Redis lost `atMs` after the common start (negative: before the first call) for `downMs`:
 * an outage kills redis-server and starts it again empty; a partition cuts the first process
 * alone off Redis, which keeps its data.
 */
export interface Fault {
  kind: 'outage' | 'partition';
  atMs: number;
  downMs: number;
}

export interface FleetRunOptions {
  kind?: 'approvals' | 'exposure';
  /** Without it, every process paces itself alone. */
  redis?: RedisServer | undefined;
  processes: number;
  concurrency?: number;
  calls?: number;
  durationMs?: number;
  windowMarginMs?: number;
  fault?: Fault;
}

/** What the sandbox and the processes saw in one run. */
export interface FleetRun {
  ok: number;
  failed: number;
  records: number;
  failures: Record<string, number>;
  tooManyRequests: number;
  tokenIssues: number;
  /** Calls answered per second, from the common start to the last answer. */
  perSecond: number;
  /** How many processes reported `onFleetDegraded`, and `onFleetRestored`. */
  degraded: number;
  restored: number;
}

const WORKER = join(
  dirname(createRequire(import.meta.url).resolve('@partner-apis/redis/package.json')),
  'bench/f1-worker.mjs',
);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One worker process: ready once it has built its client, then one report. */
function startWorker(task: WorkerTask) {
  const child = fork(WORKER, [JSON.stringify(task)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 300_000);
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
  return { ready: readiness, report, start: (startAt: number) => child.send({ startAt }) };
}

/** A TCP proxy to Redis that can cut its connections and refuse new ones for a while. */
async function startProxy(port: number) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    for (const [from, to] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    async cut(downMs: number) {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
      await wait(downMs);
      await new Promise<void>((resolve) => server.listen(proxyPort, '127.0.0.1', resolve));
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * Starts `processes` processes on one fleet (a fresh key prefix), lets them call from one
 * common start, loses Redis as `fault` says, and counts what the sandbox saw.
 */
export async function runFleet(sandbox: Sandbox, options: FleetRunOptions): Promise<FleetRun> {
  const kind = options.kind ?? 'approvals';
  const { redis, fault } = options;
  const proxy =
    fault?.kind === 'partition' && redis !== undefined ? await startProxy(redis.port) : undefined;
  sandbox.resetStats();
  const task: WorkerTask = {
    kind,
    redisUrl: redis?.url,
    keyPrefix: `f1-${randomBytes(4).toString('hex')}:`,
    baseUrl: kind === 'approvals' ? sandbox.urls.approvals : sandbox.urls.exposure,
    tokenUrl: sandbox.urls.tokenUrl,
    credentials:
      kind === 'approvals' ? sandbox.credentials.approvals : sandbox.credentials.exposure,
    employee: sandbox.fixtures.employeeWithApprovals,
    durationMs: options.durationMs ?? 0,
    calls: options.calls,
    concurrency: options.concurrency ?? 1,
    windowMarginMs: options.windowMarginMs,
  };
  try {
    const workers = Array.from({ length: options.processes }, (_, index) =>
      startWorker(index === 0 && proxy !== undefined ? { ...task, redisUrl: proxy.url } : task),
    );
    await Promise.all(workers.map((worker) => worker.ready));
    const startAt = Date.now() + 200;
    for (const worker of workers) worker.start(startAt);
    if (fault !== undefined && redis !== undefined) {
      await wait(startAt + fault.atMs - Date.now());
      if (proxy !== undefined) {
        await proxy.cut(fault.downMs);
      } else {
        await redis.kill();
        await wait(fault.downMs);
        await redis.restart();
      }
    }
    const reports = await Promise.all(workers.map((worker) => worker.report));
    const stats = sandbox.stats();
    const sum = (pick: (report: WorkerReport) => number) =>
      reports.reduce((total, report) => total + pick(report), 0);
    const failures: Record<string, number> = {};
    for (const report of reports) {
      for (const [name, count] of Object.entries(report.failures)) {
        failures[name] = (failures[name] ?? 0) + count;
      }
    }
    const endedAt = Math.max(...reports.map((report) => report.lastEndedAt));
    return {
      ok: sum((report) => report.ok),
      failed: sum((report) => report.failed),
      records: sum((report) => report.records),
      failures,
      tooManyRequests: stats.totals.tooManyRequests,
      tokenIssues: stats.routes['auth.requestToken']?.tokenIssues ?? 0,
      perSecond: sum((report) => report.ok) / ((endedAt - startAt) / 1000),
      degraded: reports.filter((report) => report.degraded > 0).length,
      restored: reports.filter((report) => report.restored > 0).length,
    };
  } finally {
    proxy?.close();
  }
}
