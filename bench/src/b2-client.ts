import { getHeapStatistics } from 'node:v8';
import type * as Core from '@partner-apis/core/internal';
import type * as Exposure from '@partner-apis/exposure';
import type { PortalCredentials } from '@partner-apis/sandbox';
import type * as TransportUndici from '@partner-apis/transport-undici';
import createClient from 'openapi-fetch';
import { Agent, request } from 'undici';
import { loadOptional } from './optional-packages.js';
import { prefetchPages } from './prefetch-pages.js';

/** The ways B2 pages, from the user's own loop to the service client's `locations.list`. */
export const B2_DRIVERS = [
  'undici.request + JSON.parse (raw limit)',
  'openapi-fetch + own prefetch loop',
  'openapi-fetch + core paginate',
  'exposure client locations.list',
  'exposure client + undici transport',
] as const;
export type B2Driver = (typeof B2_DRIVERS)[number];

/** Where the records come from: the sandbox, or B2's pre-rendered server (any credentials). */
export interface B2Target {
  server: 'sandbox' | 'pre-rendered';
  baseUrl: string;
  tokenUrl: string;
  credentials: PortalCredentials;
}

export interface B2ClientInput {
  driver: B2Driver;
  target: B2Target;
  pageSize: number;
  prefetch: number;
  /** `stream` looks at each record and drops it; `array` collects them all first. */
  mode: 'stream' | 'array';
}

export type B2ClientResult =
  | { records: number; wallMs: number; peakHeapBytes: number; cpuMs: number }
  | { unavailable: string };

type LocationRecord = Record<string, unknown>;

type CoreModule = typeof Core;
type ExposureModule = typeof Exposure;
type TransportModule = typeof TransportUndici;

const LOCATIONS = '/open/portal-api/exposure/locations';

/** The headers a bare client needs: a token, fetched before the iteration, and the key. */
async function authHeaders(target: B2Target): Promise<Record<string, string>> {
  const { clientId, clientSecret, subscriptionKeys } = target.credentials;
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
  const response = await fetch(target.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic.toString('base64')}`,
      'ocp-apim-subscription-key': subscriptionKeys.primary,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'Portal.Api Portal.Api.Exposure',
    }),
  });
  if (!response.ok) throw new Error(`the token request failed with ${response.status}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  return {
    authorization: `Bearer ${token}`,
    'ocp-apim-subscription-key': subscriptionKeys.primary,
  };
}

async function bareFetchPage(
  input: B2ClientInput,
): Promise<(offset: number, limit: number, signal?: AbortSignal) => Promise<LocationRecord[]>> {
  const headers = await authHeaders(input.target);
  const client = createClient<Exposure.paths>({ baseUrl: input.target.baseUrl, headers });
  return async (offset, limit, signal) => {
    const { data, error } = await client.GET(LOCATIONS, {
      params: { query: { limit, offset } },
      ...(signal && { signal }),
    });
    if (data === undefined)
      throw new Error(`page at offset ${offset} failed: ${JSON.stringify(error)}`);
    return data;
  };
}

/**
 * The limit of this machine: undici.request and JSON.parse, nothing else, in the same prefetch
 * loop. No client can page faster than its own transport and parser do.
 */
async function* rawRecords(input: B2ClientInput): AsyncGenerator<LocationRecord> {
  const headers = await authHeaders(input.target);
  const dispatcher = new Agent();
  const fetchPage = async (offset: number, limit: number): Promise<LocationRecord[]> => {
    const url = `${input.target.baseUrl}${LOCATIONS}?limit=${limit}&offset=${offset}`;
    const { statusCode, body } = await request(url, { headers, dispatcher });
    if (statusCode !== 200) throw new Error(`page at offset ${offset} answered ${statusCode}`);
    return (await body.json()) as LocationRecord[];
  };
  try {
    for await (const page of prefetchPages(fetchPage, input.pageSize, input.prefetch)) {
      yield* page;
    }
  } finally {
    await dispatcher.close();
  }
}

async function* bareRecords(input: B2ClientInput): AsyncGenerator<LocationRecord> {
  const fetchPage = await bareFetchPage(input);
  for await (const page of prefetchPages(fetchPage, input.pageSize, input.prefetch)) yield* page;
}

async function paginatedRecords(
  input: B2ClientInput,
): Promise<AsyncIterable<LocationRecord> | string> {
  const core = await loadOptional<CoreModule>('@partner-apis/core/internal');
  if (typeof core === 'string') return core;
  const fetchPage = await bareFetchPage(input);
  return core.paginate<LocationRecord>({
    pageSize: input.pageSize,
    maxPageSize: 1024,
    prefetch: input.prefetch,
    fetchPage: ({
      offset,
      limit,
      signal,
    }: {
      offset: number;
      limit: number;
      signal: AbortSignal;
    }) => fetchPage(offset, limit, signal),
  });
}

async function clientRecords(
  input: B2ClientInput,
  withUndici: boolean,
): Promise<AsyncIterable<LocationRecord> | string> {
  let transport: typeof fetch | undefined;
  if (withUndici) {
    const loaded = await loadOptional<TransportModule>('@partner-apis/transport-undici');
    if (typeof loaded === 'string') return loaded;
    transport = loaded.createUndiciFetch();
  }
  const exposure = await loadOptional<ExposureModule>('@partner-apis/exposure');
  if (typeof exposure === 'string') return exposure;
  const { target } = input;
  const client = exposure.createExposureClient({
    baseUrl: target.baseUrl,
    tokenUrl: target.tokenUrl,
    credentials: target.credentials,
    ...(transport && { fetch: transport }),
  });
  return client.locations.list({ pageSize: input.pageSize, prefetch: input.prefetch });
}

async function recordsOf(input: B2ClientInput): Promise<AsyncIterable<LocationRecord> | string> {
  switch (input.driver) {
    case 'undici.request + JSON.parse (raw limit)':
      return rawRecords(input);
    case 'openapi-fetch + own prefetch loop':
      return bareRecords(input);
    case 'openapi-fetch + core paginate':
      return paginatedRecords(input);
    case 'exposure client locations.list':
      return clientRecords(input, false);
    case 'exposure client + undici transport':
      return clientRecords(input, true);
  }
}

declare const gc: (() => void) | undefined;

/**
 * Pages through every record once, in this fresh process started with `--expose-gc`, and
 * reports the wall time and the peak heap above the heap before the first page.
 */
export async function run(raw: unknown): Promise<B2ClientResult> {
  const input = raw as B2ClientInput;
  const records = await recordsOf(input);
  if (typeof records === 'string') return { unavailable: records };

  gc?.();
  // process.memoryUsage().heapUsed without the RSS read it also makes, which costs the client up
  // to a sixth of its CPU at this sampling rate.
  const heapUsed = () => getHeapStatistics().used_heap_size;
  const baseline = heapUsed();
  let peak = baseline;
  const sample = () => {
    const used = heapUsed();
    if (used > peak) peak = used;
  };
  const sampler = setInterval(sample, 2);

  const started = performance.now();
  const cpuBefore = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpuBefore);
  // Read after the last sample, so the collected array is alive while it is measured.
  const total = input.mode === 'array' ? kept.length : count;
  return {
    records: total,
    wallMs,
    peakHeapBytes: peak - baseline,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
