import { approvalsPage } from './approvals-page.js';
import { createClientCall, type B1Client } from './b1-clients.js';
import { createInMemoryAgent, jsonResponse } from './in-memory-agent.js';
import { percentile } from './stats.js';

export interface B1ClientInput {
  kind: B1Client;
  baseUrl: string;
  /** Measured one after the other, in this order, after one warm-up at the highest. */
  concurrencies: number[];
  warmupMs: number;
  measureMs: number;
  /** Upper bound on requests in a measured window, so the loop ends whatever the speed. */
  maxRequests: number;
  /** Connect through in-memory connections that answer the B1 page (no server, no kernel). */
  inMemory?: boolean;
}

export interface B1Measurement {
  concurrency: number;
  requests: number;
  failures: number;
  firstFailure: string | undefined;
  throughput: number;
  cpuMicrosPerRequest: number;
  p50Ms: number;
  p99Ms: number;
}

export type B1ClientResult =
  | { kind: B1Client; via: string | undefined; measurements: B1Measurement[] }
  | { kind: B1Client; unavailable: string };

const SETTLE_MS = 250;

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs one client in this (fresh) process: a warm-up long enough for the JIT to settle (a short
 * one favours the client with the least code), then one measured window per concurrency with the
 * process's CPU time, every request's latency and the completed count.
 */
export async function run(raw: unknown): Promise<B1ClientResult> {
  const input = raw as B1ClientInput;
  const agent = input.inMemory
    ? createInMemoryAgent(jsonResponse(Buffer.from(approvalsPage())))
    : undefined;
  const client = await createClientCall(input.kind, input.baseUrl, agent);
  if (typeof client === 'string') return { kind: input.kind, unavailable: client };

  const latencies = new Float64Array(input.maxRequests);
  const window = async (concurrency: number, durationMs: number, record: boolean) => {
    let recorded = 0;
    let failures = 0;
    let firstFailure: string | undefined;
    const until = performance.now() + durationMs;
    const loop = async (): Promise<void> => {
      while (performance.now() < until && recorded < input.maxRequests) {
        const start = performance.now();
        try {
          await client.call();
        } catch (error) {
          failures++;
          firstFailure ??= describe(error);
        }
        if (record) latencies[recorded] = performance.now() - start;
        recorded++;
      }
    };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, loop));
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const sorted = latencies.subarray(0, recorded).sort();
    return {
      concurrency,
      requests: recorded,
      failures,
      firstFailure,
      throughput: (recorded / elapsedMs) * 1000,
      cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, recorded),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
    };
  };

  await window(Math.max(...input.concurrencies), input.warmupMs, false);
  const measurements: B1Measurement[] = [];
  for (const concurrency of input.concurrencies) {
    // Unmeasured, so the garbage and timers of the previous concurrency do not land in this window.
    await window(concurrency, SETTLE_MS, false);
    measurements.push(await window(concurrency, input.measureMs, true));
  }
  await client.close();
  return { kind: input.kind, via: client.via, measurements };
}
