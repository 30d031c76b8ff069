import { createClientCall, type B1Client } from './b1-clients.js';
import { percentile } from './stats.js';

export interface B1ClientInput {
  kind: B1Client;
  baseUrl: string;
  concurrency: number;
  warmupMs: number;
  measureMs: number;
  /** Upper bound on requests in the measured window, so the loop ends whatever the speed. */
  maxRequests: number;
}

export type B1ClientResult =
  | {
      kind: B1Client;
      concurrency: number;
      requests: number;
      failures: number;
      firstFailure: string | undefined;
      throughput: number;
      cpuMicrosPerRequest: number;
      p50Ms: number;
      p99Ms: number;
      via: string | undefined;
    }
  | { kind: B1Client; concurrency: number; unavailable: string };

/**
 * Runs one client at a fixed concurrency in this (fresh) process: a warm-up, then a measured
 * window with the process's CPU time, every request's latency and the completed count.
 */
export async function run(raw: unknown): Promise<B1ClientResult> {
  const input = raw as B1ClientInput;
  const client = await createClientCall(input.kind, input.baseUrl);
  if (typeof client === 'string') {
    return { kind: input.kind, concurrency: input.concurrency, unavailable: client };
  }

  let failures = 0;
  let firstFailure: string | undefined;
  const latencies = new Float64Array(input.maxRequests);
  let recorded = 0;

  const loop = async (until: number, record: boolean): Promise<void> => {
    while (performance.now() < until && (!record || recorded < input.maxRequests)) {
      const start = performance.now();
      try {
        await client.call();
      } catch (error) {
        failures++;
        firstFailure ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (record && recorded < input.maxRequests) latencies[recorded++] = performance.now() - start;
    }
  };
  const workers = (until: number, record: boolean) =>
    Promise.all(Array.from({ length: input.concurrency }, () => loop(until, record)));

  await workers(performance.now() + input.warmupMs, false);
  failures = 0;
  firstFailure = undefined;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await workers(started + input.measureMs, true);
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await client.close();

  const sorted = latencies.subarray(0, recorded).sort();
  return {
    kind: input.kind,
    concurrency: input.concurrency,
    requests: recorded,
    failures,
    firstFailure,
    throughput: (recorded / elapsedMs) * 1000,
    cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, recorded),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    via: client.via,
  };
}
