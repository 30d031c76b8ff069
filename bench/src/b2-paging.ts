import type { B2ClientInput, B2ClientResult, B2Driver, B2Target } from './b2-client.js';
import type { B2ServerInput } from './b2-server.js';
import { runTask, startService, type ServiceHandle } from './processes.js';
import type { Goal, Section } from './report.js';
import type { SandboxHostInfo } from './sandbox-host.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

const PAGE_SIZE = 1024;
const DELAY_MS = 20;

type Server = B2Target['server'];
type Mode = 'stream' | 'array';

/** What is measured: each way of paging, on which server, at which prefetch. */
interface Plan {
  server: Server;
  driver: B2Driver;
  prefetch: number[];
  /** Also collect into an array at the highest prefetch, for the heap comparison. */
  array: boolean;
}

const RAW_LIMIT: B2Driver = 'undici.request + JSON.parse (raw limit)';
const DEFAULT_CLIENT: B2Driver = 'exposure client locations.list';

const PLANS: Plan[] = [
  { server: 'sandbox', driver: RAW_LIMIT, prefetch: [1, 8], array: false },
  { server: 'sandbox', driver: DEFAULT_CLIENT, prefetch: [1, 4, 8], array: true },
  {
    server: 'sandbox',
    driver: 'exposure client + undici transport',
    prefetch: [1, 8],
    array: false,
  },
  { server: 'pre-rendered', driver: RAW_LIMIT, prefetch: [1, 8], array: false },
  {
    server: 'pre-rendered',
    driver: 'openapi-fetch + own prefetch loop',
    prefetch: [1, 8],
    array: false,
  },
  {
    server: 'pre-rendered',
    driver: 'openapi-fetch + core paginate',
    prefetch: [1, 8],
    array: false,
  },
  { server: 'pre-rendered', driver: DEFAULT_CLIENT, prefetch: [1, 8], array: false },
  {
    server: 'pre-rendered',
    driver: 'exposure client + undici transport',
    prefetch: [1, 8],
    array: false,
  },
];

interface Run {
  server: Server;
  driver: B2Driver;
  prefetch: number;
  mode: Mode;
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

interface RunningServer {
  handle: ServiceHandle<unknown>;
  target: B2Target;
}

const megabytes = (bytes: number) => fixed(bytes / 1024 / 1024, 1);

/** The sandbox with a 20 ms latency on the locations read, or why it is not available. */
async function startSandbox(records: number): Promise<RunningServer | string> {
  const sandbox = await startService<SandboxHostInfo>(
    'sandbox-host',
    {
      sizes: { exposureLocations: records },
      faults: { 'exposure.listLocations': { latencyMs: DELAY_MS } },
      validateResponses: false,
    },
    { timeoutMs: 20_000 },
  );
  if (sandbox.info.unavailable !== undefined) {
    await sandbox.stop();
    return sandbox.info.unavailable;
  }
  const { urls, credentials } = sandbox.info;
  return {
    handle: sandbox,
    target: {
      server: 'sandbox',
      baseUrl: urls.exposure,
      tokenUrl: urls.tokenUrl,
      credentials: credentials.exposure,
    },
  };
}

async function startPreRendered(records: number): Promise<RunningServer> {
  const input: B2ServerInput = { records, delayMs: DELAY_MS, pageSize: PAGE_SIZE };
  const handle = await startService<{ baseUrl: string; tokenUrl: string }>('b2-server', input, {
    timeoutMs: 30_000,
  });
  return {
    handle,
    target: {
      server: 'pre-rendered',
      baseUrl: handle.info.baseUrl,
      tokenUrl: handle.info.tokenUrl,
      credentials: {
        clientId: 'bench-client',
        clientSecret: 'bench-secret',
        subscriptionKeys: { primary: 'bench-key-1', secondary: 'bench-key-2' },
      },
    },
  };
}

async function run(options: RunOptions): Promise<Section> {
  const records = options.quick ? 20_000 : 100_000;
  const reps = options.quick ? 1 : 2;
  const runs: Run[] = [];
  const notes: string[] = [];
  const unavailable = new Set<string>();

  const measure = async (server: RunningServer, plan: Plan, prefetch: number, mode: Mode) => {
    const input: B2ClientInput = {
      driver: plan.driver,
      target: server.target,
      pageSize: PAGE_SIZE,
      prefetch,
      mode,
    };
    const before = await server.handle.call<CpuUsage>('cpuUsage');
    const result = await runTask<B2ClientResult>('b2-client', input, {
      execArgv: ['--expose-gc'],
      timeoutMs: 60_000,
    });
    const after = await server.handle.call<CpuUsage>('cpuUsage');
    if ('unavailable' in result) return result.unavailable;
    if (result.records !== records) {
      notes.push(
        `${plan.driver}, prefetch ${prefetch}, ${mode}: ${result.records} records, not ${records}`,
      );
    }
    const serverCpuMs = (after.user - before.user + after.system - before.system) / 1000;
    runs.push({ server: plan.server, driver: plan.driver, prefetch, mode, ...result, serverCpuMs });
    return undefined;
  };

  for (const serverKind of ['sandbox', 'pre-rendered'] as const) {
    const server =
      serverKind === 'sandbox' ? await startSandbox(records) : await startPreRendered(records);
    if (typeof server === 'string') {
      notes.push(`rows against the sandbox: not available — ${server}`);
      continue;
    }
    try {
      const plans = PLANS.filter((candidate) => candidate.server === serverKind);
      for (const plan of plans) {
        const missing = await measure(server, plan, plan.prefetch[0] ?? 1, 'stream');
        if (missing !== undefined) {
          unavailable.add(plan.driver);
          notes.push(`${plan.driver}: not available — ${missing}`);
        }
      }
      // Round by round over every row, so a slow moment of the machine spreads over all of them.
      for (let rep = 0; rep < reps; rep++) {
        for (const plan of plans) {
          if (unavailable.has(plan.driver)) continue;
          for (const prefetch of plan.prefetch.slice(1)) {
            await measure(server, plan, prefetch, 'stream');
          }
          if (plan.array) await measure(server, plan, Math.max(...plan.prefetch), 'array');
        }
      }
    } finally {
      await server.handle.stop();
    }
  }

  const pick = (plan: Pick<Plan, 'server' | 'driver'>, prefetch: number, mode: Mode) =>
    runs.filter(
      (r) =>
        r.server === plan.server &&
        r.driver === plan.driver &&
        r.prefetch === prefetch &&
        r.mode === mode,
    );
  const medianOf = (list: Run[], key: 'wallMs' | 'peakHeapBytes' | 'cpuMs' | 'serverCpuMs') =>
    median(list.map((r) => r[key]));
  /** Wall time at `prefetch` over the raw limit's on the same server (lower is better). */
  const overLimit = (plan: Pick<Plan, 'server' | 'driver'>, prefetch: number) =>
    medianOf(pick(plan, prefetch, 'stream'), 'wallMs') /
    medianOf(pick({ server: plan.server, driver: RAW_LIMIT }, prefetch, 'stream'), 'wallMs');

  const rows: string[][] = [];
  for (const plan of PLANS) {
    if (pick(plan, 1, 'stream').length === 0) continue;
    const base = medianOf(pick(plan, 1, 'stream'), 'wallMs');
    const shapes: [number, Mode][] = plan.prefetch.map((prefetch) => [prefetch, 'stream']);
    if (plan.array) shapes.push([Math.max(...plan.prefetch), 'array']);
    for (const [prefetch, mode] of shapes) {
      const list = pick(plan, prefetch, mode);
      const wall = medianOf(list, 'wallMs');
      rows.push([
        plan.server,
        plan.driver,
        String(prefetch),
        mode === 'stream' ? 'streaming' : 'collect into array',
        fixed(wall / 1000, 2),
        mode === 'stream' ? times(base / wall) : '',
        mode === 'stream' ? times(overLimit(plan, prefetch)) : '',
        megabytes(medianOf(list, 'peakHeapBytes')),
        fixed(medianOf(list, 'cpuMs') / 1000, 2),
        fixed(medianOf(list, 'serverCpuMs') / 1000, 2),
      ]);
    }
    // Prefetch cannot beat the busier of the two processes: say how busy each was.
    const fast = pick(plan, 8, 'stream');
    const wall = medianOf(fast, 'wallMs');
    notes.push(
      `${plan.server}, ${plan.driver}, prefetch 8: client CPU ${fixed((medianOf(fast, 'cpuMs') / wall) * 100, 0)} %, server CPU ${fixed((medianOf(fast, 'serverCpuMs') / wall) * 100, 0)} % of the wall time`,
    );
  }

  const p4 = overLimit({ server: 'pre-rendered', driver: DEFAULT_CLIENT }, 8);
  const rawCpu = medianOf(
    pick({ server: 'pre-rendered', driver: RAW_LIMIT }, 8, 'stream'),
    'cpuMs',
  );
  for (const driver of [DEFAULT_CLIENT, 'exposure client + undici transport'] as const) {
    const cpu = medianOf(pick({ server: 'pre-rendered', driver }, 8, 'stream'), 'cpuMs');
    notes.push(
      `pre-rendered, ${driver}, prefetch 8: client CPU ${times(cpu / rawCpu)} the raw limit's (wall time follows it when the client, not the clock, bounds a run)`,
    );
  }
  const headline = { server: 'sandbox', driver: DEFAULT_CLIENT } as const;
  const heapRatio =
    medianOf(pick(headline, 8, 'stream'), 'peakHeapBytes') /
    medianOf(pick(headline, 8, 'array'), 'peakHeapBytes');
  const goals: Goal[] = [
    {
      name: 'P4 paging at prefetch 8, exposure client (default transport), wall time vs the raw limit, pre-rendered server',
      target: '≤ 1.05×',
      measured: times(p4),
      met: Number.isFinite(p4) ? p4 <= 1.05 : undefined,
    },
    {
      name: 'B2 streaming peak heap vs array, exposure client, sandbox',
      target: '≤ 0.80×',
      measured: times(heapRatio),
      met: Number.isFinite(heapRatio) ? heapRatio <= 0.8 : undefined,
    },
  ];

  return {
    id: 'B2',
    title: 'Paging',
    method: [
      `${records.toLocaleString('en')} exposure locations (about 480 bytes of JSON each) at limit ${PAGE_SIZE}, every page answered after ${DELAY_MS} ms,`,
      'from the sandbox, and from a pre-rendered server that shows what the clients do when serving a page costs nothing; each server in its own process.',
      'Each run in a fresh process with --expose-gc; peak heap is the highest heapUsed (v8.getHeapStatistics, sampled every 2 ms and every 256 records) above the heap before the first page.',
      `Medians of ${reps} run(s), interleaved over the rows (prefetch 1: one run); speed-up is over prefetch 1 of the same row group.`,
      `The raw limit is undici.request and JSON.parse alone in the same prefetch loop; "× raw limit wall" is a row's wall time over the raw limit's at the same prefetch on the same server (1.00× is as fast as this machine pages).`,
    ].join(' '),
    tables: [
      {
        columns: [
          'server',
          'paging through',
          'prefetch',
          'records are',
          'wall s',
          'speed-up',
          '× raw limit wall',
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
