import createClient from 'openapi-fetch';
import { prefetchPages } from './prefetch-pages.js';

/** The ways B2 pages, from the user's own loop to the service client's `locations.list`. */
export const B2_DRIVERS = ['openapi-fetch + own prefetch loop'] as const;
export type B2Driver = (typeof B2_DRIVERS)[number];

export interface B2ClientInput {
  driver: B2Driver;
  baseUrl: string;
  pageSize: number;
  prefetch: number;
  /** `stream` looks at each record and drops it; `array` collects them all first. */
  mode: 'stream' | 'array';
}

export type B2ClientResult =
  { records: number; wallMs: number; peakHeapBytes: number } | { unavailable: string };

type LocationRecord = Record<string, unknown>;

interface LocationPaths {
  '/open/portal-api/exposure/locations': {
    get: {
      parameters: { query: { limit: number; offset: number } };
      responses: { 200: { content: { 'application/json': LocationRecord[] } } };
    };
  };
}

async function* bareRecords(input: B2ClientInput): AsyncGenerator<LocationRecord> {
  const client = createClient<LocationPaths>({ baseUrl: input.baseUrl });
  const fetchPage = async (offset: number, limit: number) => {
    const { data, error } = await client.GET('/open/portal-api/exposure/locations', {
      params: { query: { limit, offset } },
    });
    if (data === undefined)
      throw new Error(`page at offset ${offset} failed: ${JSON.stringify(error)}`);
    return data;
  };
  for await (const page of prefetchPages(fetchPage, input.pageSize, input.prefetch)) yield* page;
}

function recordsOf(input: B2ClientInput): AsyncIterable<LocationRecord> | string {
  switch (input.driver) {
    case 'openapi-fetch + own prefetch loop':
      return bareRecords(input);
  }
}

declare const gc: (() => void) | undefined;

/**
 * Pages through every record once, in this fresh process started with `--expose-gc`, and
 * reports the wall time and the peak heap above the heap before the first page.
 */
export async function run(raw: unknown): Promise<B2ClientResult> {
  const input = raw as B2ClientInput;
  const records = recordsOf(input);
  if (typeof records === 'string') return { unavailable: records };

  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sample = () => {
    const used = process.memoryUsage().heapUsed;
    if (used > peak) peak = used;
  };
  const sampler = setInterval(sample, 2);

  const started = performance.now();
  let count = 0;
  const kept: LocationRecord[] = [];
  try {
    for await (const record of records) {
      if (input.mode === 'array') kept.push(record);
      else if (typeof record['locationId'] !== 'string')
        throw new Error('a record has no locationId');
      if (++count % 256 === 0) sample();
    }
  } finally {
    clearInterval(sampler);
  }
  sample();
  const wallMs = performance.now() - started;
  // Read after the last sample, so the collected array is alive while it is measured.
  const total = input.mode === 'array' ? kept.length : count;
  return { records: total, wallMs, peakHeapBytes: peak - baseline };
}
