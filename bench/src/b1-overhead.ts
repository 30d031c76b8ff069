import { B1_CLIENTS, B1_IN_MEMORY_CLIENTS, type B1Client } from './b1-clients.js';
import type { B1ClientInput, B1ClientResult, B1Measurement } from './b1-client.js';
import { runTask, startService } from './processes.js';
import type { Goal, Section } from './report.js';
import { fixed, times, type RunOptions, type Scenario } from './scenario.js';
import { median } from './stats.js';

type Measured = B1Measurement;

const CONCURRENCIES = [1, 32] as const;
/** P1: the default client's throughput as a share of raw undici.request's, per concurrency. */
const P1_TARGETS: Record<(typeof CONCURRENCIES)[number], number> = { 1: 0.8, 32: 0.6 };
/** B1: the default client's throughput as a share of raw node:http's, per concurrency. */
const NODE_HTTP_TARGET = 0.9;
/** B1: the undici transport's throughput as a share of raw undici.request's, per concurrency. */
const UNDICI_TARGETS: Record<(typeof CONCURRENCIES)[number], number> = { 1: 0.85, 32: 0.75 };
/** B1: raw node:http's CPU per request over the client's, in memory (the client ≤ 1.2×). */
const IN_MEMORY_CPU_TARGET = 1 / 1.2;

/**
 * The median over rounds of `kind`'s throughput relative to `reference` in the same round; with
 * `by: 'cpu'`, of the reference's CPU per request relative to `kind`'s (higher is better either
 * way). CPU per request suffers less than throughput when other work shares the machine.
 */
function sameRoundRatio(
  rounds: Map<B1Client, Measured>[],
  kind: B1Client,
  reference: B1Client,
  by: 'throughput' | 'cpu' = 'throughput',
): number {
  return median(
    rounds.flatMap((round) => {
      const measured = round.get(kind);
      const base = round.get(reference);
      if (!measured || !base) return [];
      return [
        by === 'throughput'
          ? measured.throughput / base.throughput
          : base.cpuMicrosPerRequest / measured.cpuMicrosPerRequest,
      ];
    }),
  );
}

function goal(name: string, ratio: number, target: number): Goal {
  return {
    name,
    target: `≥ ${target.toFixed(2)}×`,
    measured: times(ratio),
    met: Number.isFinite(ratio) ? ratio >= target : undefined,
  };
}

type InMemoryClient = (typeof B1_IN_MEMORY_CLIENTS)[number];

/**
 * CPU per request of the clients that take an `http.Agent`, over in-memory connections that
 * answer the same page: what each spends in JavaScript, without the kernel's share of a
 * loopback request, which is most of it and moves the most between runs. One fresh process per
 * client and round, one request in flight; medians over the rounds.
 */
async function measureInMemory(
  rounds: number,
  timing: { warmupMs: number; measureMs: number },
  failures: string[],
): Promise<Map<InMemoryClient, number>[]> {
  const byRound: Map<InMemoryClient, number>[] = [];
  for (let round = 0; round < rounds; round++) {
    const measured = new Map<InMemoryClient, number>();
    const order = round % 2 === 0 ? B1_IN_MEMORY_CLIENTS : [...B1_IN_MEMORY_CLIENTS].reverse();
    for (const kind of order) {
      const input: B1ClientInput = {
        kind,
        // Never dialled: the agent answers in the process.
        baseUrl: 'http://127.0.0.1:9/v1',
        concurrencies: [1],
        ...timing,
        maxRequests: 200_000,
        inMemory: true,
      };
      const result = await runTask<B1ClientResult>('b1-client', input, { timeoutMs: 30_000 });
      if ('unavailable' in result) continue;
      const [window] = result.measurements;
      if (window === undefined) continue;
      if (window.failures > 0) {
        failures.push(
          `${kind} in memory (round ${round + 1}): ${window.failures} failed requests, first: ${window.firstFailure}`,
        );
      }
      measured.set(kind, window.cpuMicrosPerRequest);
    }
    byRound.push(measured);
  }
  return byRound;
}

async function run(options: RunOptions): Promise<Section> {
  const rounds = options.quick ? 2 : 12;
  const timing = options.quick
    ? { warmupMs: 600, measureMs: 400 }
    : { warmupMs: 1200, measureMs: 600 };
  const server = await startService<{ port: number; bytes: number }>('b1-server', null, {
    timeoutMs: 10_000,
  });
  const baseUrl = `http://127.0.0.1:${server.info.port}/v1`;
  // byConcurrency[c][round] maps each client to what it measured in that round.
  const byConcurrency = new Map<number, Map<B1Client, Measured>[]>();
  const unavailable = new Map<B1Client, string>();
  const failures: string[] = [];
  const vias = new Map<B1Client, string>();

  try {
    for (let round = 0; round < rounds; round++) {
      const results = new Map<number, Map<B1Client, Measured>>(
        CONCURRENCIES.map((concurrency) => [concurrency, new Map()]),
      );
      // Rotate the order each round so no client always runs first or last, and reverse it
      // every other round so each client of a pair runs first as often as the other: the run
      // before leaves the server and the machine busier than it found them.
      const rotated = B1_CLIENTS.map(
        (_, i) => B1_CLIENTS[(i + round) % B1_CLIENTS.length] as B1Client,
      );
      const order = round % 2 === 0 ? rotated : rotated.reverse();
      for (const kind of order) {
        if (unavailable.has(kind)) continue;
        const input: B1ClientInput = {
          kind,
          baseUrl,
          concurrencies: [...CONCURRENCIES],
          ...timing,
          maxRequests: 200_000,
        };
        const result = await runTask<B1ClientResult>('b1-client', input, { timeoutMs: 30_000 });
        if ('unavailable' in result) {
          unavailable.set(kind, result.unavailable);
          continue;
        }
        if (result.via !== undefined) vias.set(kind, result.via);
        for (const measured of result.measurements) {
          if (measured.failures > 0) {
            failures.push(
              `${kind} (c=${measured.concurrency}, round ${round + 1}): ${measured.failures} failed requests, first: ${measured.firstFailure}`,
            );
          }
          results.get(measured.concurrency)?.set(kind, measured);
        }
      }
      for (const [concurrency, measured] of results) {
        byConcurrency.set(concurrency, [...(byConcurrency.get(concurrency) ?? []), measured]);
      }
    }
  } finally {
    await server.stop();
  }

  const inMemory = await measureInMemory(rounds, timing, failures);

  const rows: string[][] = [];
  const goals: Goal[] = [];
  const cpuNotes: string[] = [];
  for (const concurrency of CONCURRENCIES) {
    const measuredRounds = byConcurrency.get(concurrency) ?? [];
    for (const kind of B1_CLIENTS) {
      const reason = unavailable.get(kind);
      if (reason !== undefined) {
        rows.push([kind, String(concurrency), 'not available', '', '', '', '', '']);
        continue;
      }
      const all = measuredRounds.flatMap((round) => round.get(kind) ?? []);
      rows.push([
        kind,
        String(concurrency),
        fixed(median(all.map((r) => r.throughput)), 0),
        fixed(median(all.map((r) => r.cpuMicrosPerRequest)), 0),
        fixed(median(all.map((r) => r.p50Ms)), 2),
        fixed(median(all.map((r) => r.p99Ms)), 2),
        times(sameRoundRatio(measuredRounds, kind, 'undici.request')),
        times(sameRoundRatio(measuredRounds, kind, 'openapi-fetch')),
      ]);
    }
    const ourClient = 'our client, default transport';
    cpuNotes.push(
      `by CPU per request, c=${concurrency}: our client ${times(sameRoundRatio(measuredRounds, ourClient, 'undici.request', 'cpu'))} undici.request, ${times(sameRoundRatio(measuredRounds, ourClient, 'node:http keep-alive', 'cpu'))} node:http; with the undici transport ${times(sameRoundRatio(measuredRounds, 'our client + undici transport', 'undici.request', 'cpu'))} undici.request`,
    );
    goals.push(
      goal(
        `P1 our client (default transport) vs raw undici.request, c=${concurrency}`,
        sameRoundRatio(measuredRounds, ourClient, 'undici.request'),
        P1_TARGETS[concurrency],
      ),
      goal(
        `B1 our client (default transport) vs raw node:http, req/s, c=${concurrency}`,
        sameRoundRatio(measuredRounds, ourClient, 'node:http keep-alive'),
        NODE_HTTP_TARGET,
      ),
      goal(
        `B1 our client + undici transport vs raw undici.request, req/s, c=${concurrency}`,
        sameRoundRatio(measuredRounds, 'our client + undici transport', 'undici.request'),
        UNDICI_TARGETS[concurrency],
      ),
    );
  }
  const inMemoryRatios = inMemory.flatMap((round) => {
    const mine = round.get('our client, default transport');
    const raw = round.get('node:http keep-alive');
    return mine === undefined || raw === undefined ? [] : [raw / mine];
  });
  goals.push(
    goal(
      'B1 CPU per request in memory: raw node:http over our client (≥ 0.83× is ≤ 1.2× its CPU)',
      median(inMemoryRatios),
      IN_MEMORY_CPU_TARGET,
    ),
  );

  return {
    id: 'B1',
    title: 'Request overhead',
    method: [
      `GET of a ${(server.info.bytes / 1024).toFixed(1)} kB JSON page from a node:http server in its own process;`,
      `each client runs in a fresh process per round (${timing.warmupMs} ms warm-up at c=32, then at each concurrency 250 ms to settle and ${timing.measureMs} ms measured),`,
      `${rounds} interleaved rounds in rotating order, reversed every other round, each ratio's two clients back to back. req/s, client CPU per request (process.cpuUsage) and`,
      'latencies are medians over the rounds; ratios are medians of same-round throughput ratios.',
      '"our client" is the approvals client (auth headers, tracing, retries; no rate limit), with whatever transport it picks by default, and with the opt-in undici transport.',
      'The raw rows do only what any client must: send the GET on a keep-alive connection and JSON.parse the body.',
      'The second table measures the clients that take an http.Agent once more, one request in flight, over in-memory connections that answer the same page:',
      "what each spends per request in JavaScript, without the kernel's share; its ratio is node:http's CPU per request over the client's, median of same-round ratios.",
    ].join(' '),
    tables: [
      {
        columns: [
          'client',
          'c',
          'req/s',
          'CPU µs/req',
          'p50 ms',
          'p99 ms',
          '× undici.request',
          '× openapi-fetch',
        ],
        rows,
      },
      {
        columns: ['client, in memory', 'CPU µs/req', '× node:http keep-alive'],
        rows: B1_IN_MEMORY_CLIENTS.map((kind) => {
          const own = inMemory.flatMap((round) => round.get(kind) ?? []);
          const ratios = inMemory.flatMap((round) => {
            const mine = round.get(kind);
            const raw = round.get('node:http keep-alive');
            return mine === undefined || raw === undefined ? [] : [raw / mine];
          });
          return [kind, fixed(median(own), 1), times(median(ratios))];
        }),
      },
    ],
    goals,
    notes: [
      ...cpuNotes,
      ...[...vias].map(([kind, via]) => `${kind}: ${via}`),
      ...[...unavailable].map(([kind, reason]) => `${kind}: not available — ${reason}`),
      ...failures,
    ],
  };
}

export const b1Overhead: Scenario = { id: 'B1', run };
