import {
  B2_DRIVERS,
  type B2ClientInput,
  type B2ClientResult,
  type B2Driver,
  type B2Target,
} from './b2-client.js';
import type { B2ServerInput } from './b2-server.js';
import { runTask, startService, type ServiceHandle } from './processes.js';
import type { SandboxHostInfo } from './sandbox-host.js';
import type { Goal, Section } from './report.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

const PREFETCH = [1, 4, 8] as const;
const PAGE_SIZE = 1024;
const DELAY_MS = 20;

interface Run {
  driver: B2Driver;
  prefetch: number;
  mode: 'stream' | 'array';
  records: number;
  wallMs: number;
  peakHeapBytes: number;
  /** CPU time of the client process during the iteration. */
  cpuMs: number;
  /** CPU time of the server process during the iteration. */
  serverCpuMs: number;
}

interface CpuUsage {
  user: number;
  system: number;
}

const megabytes = (bytes: number) => fixed(bytes / 1024 / 1024, 1);

/** The sandbox with a 20 ms latency on the locations read; B2's own server without it. */
async function startServer(
  records: number,
  notes: string[],
): Promise<{ server: ServiceHandle<unknown>; target: B2Target }> {
  const sandbox = await startService<SandboxHostInfo>(
    'sandbox-host',
    {
      sizes: { exposureLocations: records },
      faults: { 'exposure.listLocations': { latencyMs: DELAY_MS } },
      validateResponses: false,
    },
    { timeoutMs: 20_000 },
  );
  if (sandbox.info.unavailable === undefined) {
    const { urls, credentials } = sandbox.info;
    return {
      server: sandbox,
      target: {
        kind: 'sandbox',
        baseUrl: urls.exposure,
        tokenUrl: urls.tokenUrl,
        credentials: credentials.exposure,
      },
    };
  }
  await sandbox.stop();
  notes.push(`served by B2's own server: ${sandbox.info.unavailable}`);
  const input: B2ServerInput = { records, delayMs: DELAY_MS };
  const own = await startService<{ baseUrl: string }>('b2-server', input, { timeoutMs: 10_000 });
  return { server: own, target: { kind: 'own server', baseUrl: own.info.baseUrl } };
}

async function run(options: RunOptions): Promise<Section> {
  const records = options.quick ? 20_000 : 100_000;
  const reps = options.quick ? 1 : 2;
  const runs: Run[] = [];
  const notes: string[] = [];
  const { server, target } = await startServer(records, notes);

  const measure = async (driver: B2Driver, prefetch: number, mode: Run['mode']) => {
    const input: B2ClientInput = {
      driver,
      target,
      pageSize: PAGE_SIZE,
      prefetch,
      mode,
    };
    const serverBefore = await server.call<CpuUsage>('cpuUsage');
    const result = await runTask<B2ClientResult>('b2-client', input, {
      execArgv: ['--expose-gc'],
      timeoutMs: 60_000,
    });
    const serverAfter = await server.call<CpuUsage>('cpuUsage');
    if ('unavailable' in result) return result.unavailable;
    if (result.records !== records) {
      notes.push(
        `${driver}, prefetch ${prefetch}, ${mode}: ${result.records} records instead of ${records}`,
      );
    }
    const serverCpuMs =
      (serverAfter.user - serverBefore.user + serverAfter.system - serverBefore.system) / 1000;
    runs.push({ driver, prefetch, mode, ...result, serverCpuMs });
    return undefined;
  };

  const available: B2Driver[] = [];
  try {
    for (const driver of B2_DRIVERS) {
      const missing = await measure(driver, 1, 'stream');
      if (missing !== undefined) {
        notes.push(`${driver}: not available — ${missing}`);
        continue;
      }
      available.push(driver);
      for (let rep = 0; rep < reps; rep++) {
        for (const prefetch of PREFETCH.slice(1)) await measure(driver, prefetch, 'stream');
        await measure(driver, 8, 'array');
      }
    }
  } finally {
    await server.stop();
  }

  const pick = (driver: B2Driver, prefetch: number, mode: Run['mode']) =>
    runs.filter((r) => r.driver === driver && r.prefetch === prefetch && r.mode === mode);
  const medianOf = (list: Run[], key: 'wallMs' | 'peakHeapBytes' | 'cpuMs' | 'serverCpuMs') =>
    median(list.map((r) => r[key]));

  const rows: string[][] = [];
  for (const driver of available) {
    const base = medianOf(pick(driver, 1, 'stream'), 'wallMs');
    for (const [prefetch, mode] of [
      [1, 'stream'],
      [4, 'stream'],
      [8, 'stream'],
      [8, 'array'],
    ] as const) {
      const list = pick(driver, prefetch, mode);
      const wall = medianOf(list, 'wallMs');
      rows.push([
        driver,
        String(prefetch),
        mode === 'stream' ? 'streaming' : 'collect into array',
        fixed(wall / 1000, 2),
        mode === 'stream' ? times(base / wall) : '',
        megabytes(medianOf(list, 'peakHeapBytes')),
        fixed(medianOf(list, 'cpuMs') / 1000, 2),
        fixed(medianOf(list, 'serverCpuMs') / 1000, 2),
      ]);
    }
  }

  // The goals are checked on the exposure client when it exists, else on the highest-level way
  // of paging this checkout has; the client with the undici transport gets its own speed-up line.
  const headline = available.includes('exposure client locations.list')
    ? 'exposure client locations.list'
    : available.filter((driver) => driver !== 'exposure client + undici transport').at(-1);
  const speedUpOf = (driver: B2Driver) =>
    medianOf(pick(driver, 1, 'stream'), 'wallMs') / medianOf(pick(driver, 8, 'stream'), 'wallMs');
  const speedUpGoal = (driver: B2Driver | undefined): Goal => {
    const speedUp = driver === undefined ? Number.NaN : speedUpOf(driver);
    return {
      name: `B2 speed-up at prefetch 8${driver === undefined ? '' : ` (${driver})`}`,
      target: '≥ 5.00×',
      measured: times(speedUp),
      met: Number.isFinite(speedUp) ? speedUp >= 5 : undefined,
    };
  };
  const heapRatio =
    headline === undefined
      ? Number.NaN
      : medianOf(pick(headline, 8, 'stream'), 'peakHeapBytes') /
        medianOf(pick(headline, 8, 'array'), 'peakHeapBytes');
  const goals: Goal[] = [
    speedUpGoal(headline),
    ...(available.includes('exposure client + undici transport')
      ? [speedUpGoal('exposure client + undici transport')]
      : []),
    {
      name: `B2 streaming peak heap vs array${headline === undefined ? '' : ` (${headline})`}`,
      target: '≤ 0.80×',
      measured: times(heapRatio),
      met: Number.isFinite(heapRatio) ? heapRatio <= 0.8 : undefined,
    },
  ];
  // Prefetch cannot beat the busier of the two processes: say how busy each was.
  for (const driver of available) {
    const fast = pick(driver, 8, 'stream');
    const wall = medianOf(fast, 'wallMs');
    notes.push(
      `${driver}, prefetch 8: client CPU ${fixed((medianOf(fast, 'cpuMs') / wall) * 100, 0)} % and server CPU ${fixed((medianOf(fast, 'serverCpuMs') / wall) * 100, 0)} % of the wall time`,
    );
  }

  return {
    id: 'B2',
    title: 'Paging',
    method: [
      `${records.toLocaleString('en')} exposure locations at limit ${PAGE_SIZE} from the sandbox in its own process, which answers each page after ${DELAY_MS} ms;`,
      `each run in a fresh process with --expose-gc; peak heap is the highest process.memoryUsage().heapUsed above the heap before the first page.`,
      `Medians of ${reps} run(s) (prefetch 1: one run); speed-up is over prefetch 1 of the same way of paging.`,
    ].join(' '),
    tables: [
      {
        columns: [
          'paging through',
          'prefetch',
          'records are',
          'wall s',
          'speed-up',
          'peak heap MB',
          'client CPU s',
          'server CPU s',
        ],
        rows,
      },
    ],
    goals,
    notes,
  };
}

export const b2Paging: Scenario = { id: 'B2', run };
