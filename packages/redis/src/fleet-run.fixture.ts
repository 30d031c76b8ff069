// Runs a fleet of real processes against the sandbox and a real redis-server, with Redis lost
// at a chosen moment, for the fault tests and bench F1.
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { Sandbox } from '@partner-apis/sandbox';
import { createRollingWindowCounter } from '@partner-apis/testing';
import { Redis } from 'ioredis';
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
  /** One call through a client that declares gold before the silver client's calls. */
  goldFirst?: boolean | undefined;
}

/** What one worker process saw. */
export interface WorkerReport {
  ok: number;
  /** Answers that carry the record asked for (the employee's approvals, or one location). */
  records: number;
  failed: number;
  failures: Record<string, number>;
  degraded: number;
  restored: number;
  /** When each approvals request was handed to its socket (ms since the epoch). */
  written: number[];
  /** Warnings the clients' logger got (a second tier declared for the client ID). */
  warnings: number;
}

/**
 * Redis lost `atMs` after the common start (negative: before the first call) for `downMs`:
 * an outage kills redis-server and starts it again empty; a partition cuts the first process
 * alone off Redis, which keeps its data. A wipe empties Redis and drops every connection in one
 * step (`downMs` is not used): a restart too quick for any process to see a command fail.
 */
export interface Fault {
  kind: 'outage' | 'partition' | 'wipe';
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
  /** Processes that keep a core busy, from before the start to the last report. */
  cpuHogs?: number;
  /** Each process makes one call declaring gold, then its calls declaring silver. */
  goldFirst?: boolean;
}

/** What the sandbox and the processes saw in one run. */
export interface FleetRun {
  ok: number;
  failed: number;
  records: number;
  failures: Record<string, number>;
  /**
   * Approvals calls a strict server of the silver tier would refuse: at most 10 per rolling
   * second, each counted the moment it was written, as by a server that never falls behind.
   */
  tooManyRequests: number;
  tokenIssues: number;
  /** Approvals calls written per second, from the first to the last. */
  writtenPerSecond: number;
  warnings: number;
  /** How many processes reported `onFleetDegraded`, and `onFleetRestored`. */
  degraded: number;
  restored: number;
}

const WORKER = join(
  dirname(createRequire(import.meta.url).resolve('@partner-apis/redis/package.json')),
  'bench/f1-worker.mjs',
);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const SILVER = 10;

/** The calls a strict server of `perSecond` would refuse, each seen as it was written. */
function refusedByStrictServer(written: readonly number[], perSecond: number): number {
  const counter = createRollingWindowCounter(1000);
  const refused = [...written]
    .sort((a, b) => a - b)
    .filter((at) => !counter.admit('client', at, perSecond));
  return refused.length;
}

/** Busy loops, one process each, that share the cores with the fleet until stopped. */
function startCpuHogs(count: number) {
  const hogs = Array.from({ length: count }, () =>
    // Bounded on its own too, should the run end without stopping it.
    spawn(process.execPath, ['-e', 'const end = Date.now() + 300_000; while (Date.now() < end);'], {
      stdio: 'ignore',
    }),
  );
  return () => {
    for (const hog of hogs) hog.kill('SIGKILL');
  };
}

type WorkerMessage = 'idle' | 'ready' | WorkerReport;

/** One worker process, for many runs: ready once it has built its clients, then one report. */
async function startWorker() {
  const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let listener: ((message: WorkerMessage) => void) | undefined;
  let exited: ((code: number | null) => void) | undefined;
  child.on('message', (message: WorkerMessage) => listener?.(message));
  child.once('exit', (code) => exited?.(code));
  const next = () =>
    new Promise<WorkerMessage>((resolve, reject) => {
      listener = resolve;
      exited = (code) => reject(new Error(`a worker exited (${String(code)}) mid-run`));
    });
  await next();
  return {
    run(task: WorkerTask) {
      const ready = next();
      child.send({ task });
      const report = ready.then(next) as Promise<WorkerReport>;
      return { ready, report, start: (startAt: number) => child.send({ startAt }) };
    },
    close: () => child.kill('SIGKILL'),
  };
}

/**
 * Processes that make one fleet run after another: loading the clients costs a process seconds
 * on a busy machine, more than a run.
 */
export interface FleetWorkers {
  readonly workers: readonly Awaited<ReturnType<typeof startWorker>>[];
  close(): void;
}

/** Starts `count` worker processes, for `runFleet` with up to as many processes. */
export async function startFleetWorkers(count: number): Promise<FleetWorkers> {
  const workers = await Promise.all(Array.from({ length: count }, startWorker));
  return { workers, close: () => workers.forEach((worker) => worker.close()) };
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
 * Lets `processes` of the workers call through one fleet (a fresh key prefix) from one common
 * start, loses Redis as `fault` says, and counts what they wrote and the sandbox saw.
 */
export async function runFleet(
  sandbox: Sandbox,
  pool: FleetWorkers,
  options: FleetRunOptions,
): Promise<FleetRun> {
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
    goldFirst: options.goldFirst,
  };
  const stopHogs = startCpuHogs(options.cpuHogs ?? 0);
  try {
    const workers = pool.workers
      .slice(0, options.processes)
      .map((worker, index) =>
        worker.run(index === 0 && proxy !== undefined ? { ...task, redisUrl: proxy.url } : task),
      );
    if (workers.length < options.processes) throw new Error('not as many workers as processes');
    await Promise.all(workers.map((worker) => worker.ready));
    const startAt = Date.now() + 200;
    for (const worker of workers) worker.start(startAt);
    if (fault !== undefined && redis !== undefined) {
      await wait(startAt + fault.atMs - Date.now());
      if (proxy !== undefined) {
        await proxy.cut(fault.downMs);
      } else if (fault.kind === 'wipe') {
        const admin = new Redis(redis.url);
        try {
          await admin.multi().flushall().call('CLIENT', ['KILL', 'TYPE', 'normal']).exec();
        } finally {
          admin.disconnect();
        }
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
    const written = reports.flatMap((report) => report.written);
    const spanMs = Math.max(...written) - Math.min(...written);
    return {
      ok: sum((report) => report.ok),
      failed: sum((report) => report.failed),
      records: sum((report) => report.records),
      failures,
      tooManyRequests: refusedByStrictServer(written, SILVER),
      tokenIssues: stats.routes['auth.requestToken']?.tokenIssues ?? 0,
      writtenPerSecond: written.length > 1 ? ((written.length - 1) * 1000) / spanMs : 0,
      warnings: sum((report) => report.warnings),
      degraded: reports.filter((report) => report.degraded > 0).length,
      restored: reports.filter((report) => report.restored > 0).length,
    };
  } finally {
    stopHogs();
    proxy?.close();
  }
}
