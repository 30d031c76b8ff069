import type { TestHooks } from '@partner-apis/core/testing';
import { createTokenCache } from '@partner-apis/auth';
import {
  ApiError,
  AuthenticationError,
  BadGatewayError,
  ConfigurationError,
  ConnectionError,
  InvalidArgumentError,
  ServiceUnavailableError,
  TokenError,
  ValidationError,
} from '@partner-apis/errors';
import { createServiceClient, oauth2Service } from '@partner-apis/core';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { service } from './generated/operations.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createExposureClient,
  type ExposureClientOptions,
  type Location,
  type paths,
} from './index.js';

const SIZE = 900;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, sizes: { exposureLocations: SIZE } });
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.clearFaults();
  sb.restoreKeys();
  sb.setTokenLifetime(3600);
  sb.resetStats();
});

/** Options with a token cache of their own, so each test counts its own token requests. */
function options(overrides: Partial<ExposureClientOptions> = {}): ExposureClientOptions {
  return {
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure,
    tokenCache: createTokenCache(),
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...overrides,
  };
}

const client = (overrides: Partial<ExposureClientOptions> & TestHooks = {}) =>
  createExposureClient(options(overrides));

/**
 * A `fetch` that holds the location pages `hold` picks until they are aborted, like a network
 * too slow to answer them; every other request goes through.
 */
function holdingFetch(hold: (offset: number) => boolean) {
  const held: Array<{ signal: AbortSignal; settled: Promise<unknown> }> = [];
  const holding: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const offset = Number(url.searchParams.get('offset'));
    const signal = init?.signal;
    if (!url.pathname.endsWith('/locations') || !hold(offset) || !signal) return fetch(input, init);
    const settled = new Promise<Response>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    held.push({ signal, settled: settled.catch((error: unknown) => error) });
    return settled;
  };
  return { fetch: holding, held };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

const id = (location: Location) => location['locationId'];
const route = (name: string) => sb.stats().routes[name];

describe('locations.list', () => {
  it('yields every location exactly once, in order', async () => {
    const locations = await collect(client().locations.list({ pageSize: 256 }));
    expect(locations).toHaveLength(SIZE);
    expect(new Set(locations.map(id)).size).toBe(SIZE);
    expect(locations.map(id).slice(0, 3)).toEqual(['LOC-0000001', 'LOC-0000002', 'LOC-0000003']);
    expect(id(locations[SIZE - 1] as Location)).toBe('LOC-0000900');
  });

  it('gives the same records with prefetch 8 as with prefetch 1', async () => {
    const exposure = client();
    const one = await collect(exposure.locations.list({ pageSize: 100, prefetch: 1 }));
    const eight = await collect(exposure.locations.list({ pageSize: 100, prefetch: 8 }));
    expect(eight).toEqual(one);
    expect(one).toHaveLength(SIZE);
  });

  it('uses the client-wide page size and prefetch', async () => {
    const limits = new Set<string | null>();
    const recordingFetch: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith('/locations')) limits.add(url.searchParams.get('limit'));
      return fetch(input, init);
    };
    const exposure = client({ pageSize: 200, prefetch: 2, fetch: recordingFetch });
    expect(await collect(exposure.locations.list())).toHaveLength(SIZE);
    // Full pages of 200, then one request confirming the end right after the short last page.
    expect(limits).toEqual(new Set(['200', String(SIZE % 200)]));
  });

  it('yields only the locations modified since a day, given as text or as a Date', async () => {
    const exposure = client();
    const all = await collect(exposure.locations.list({ pageSize: 1024 }));
    const since = String((all[600] as Location)['modifiedDate']);
    const expected = all.filter((location) => String(location['modifiedDate']) >= since);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(SIZE);
    expect(await collect(exposure.locations.list({ modifiedSince: since }))).toEqual(expected);
    const asDate = new Date(`${since}T12:00:00Z`);
    expect(await collect(exposure.locations.list({ modifiedSince: asDate }))).toEqual(expected);
  });

  it('aborts the pages in flight when the loop is left', async () => {
    const { fetch: slowFetch, held } = holdingFetch((offset) => offset > 0);
    const exposure = client({ fetch: slowFetch, prefetch: 8, pageSize: 10 });
    const seen: Location[] = [];
    for await (const location of exposure.locations.list()) {
      seen.push(location);
      if (seen.length === 3) break;
    }
    expect(seen.map(id)).toEqual(['LOC-0000001', 'LOC-0000002', 'LOC-0000003']);
    expect(held.length).toBeGreaterThanOrEqual(7);
    await Promise.all(held.map(({ settled }) => settled));
    expect(held.every(({ signal }) => signal.aborted)).toBe(true);
  });

  it('stops when the caller aborts', async () => {
    const { fetch: slowFetch, held } = holdingFetch((offset) => offset >= 20);
    const controller = new AbortController();
    const exposure = client({ fetch: slowFetch, pageSize: 10, prefetch: 1 });
    const seen: Location[] = [];
    const iterate = async () => {
      for await (const location of exposure.locations.list({ signal: controller.signal })) {
        seen.push(location);
        if (seen.length === 15) controller.abort(new Error('enough'));
      }
    };
    await expect(iterate()).rejects.toThrow('enough');
    // The page in hand is finished; the page after it is never read.
    expect(seen).toHaveLength(20);
    await Promise.all(held.map(({ settled }) => settled));
    expect(held.every(({ signal }) => signal.aborted)).toBe(true);
  });

  it('refuses bad arguments before any request', () => {
    const exposure = client();
    expect(() => exposure.locations.list({ pageSize: 2000 })).toThrow(
      'locations.list: options.pageSize must be an integer from 1 to 1024 (got 2000)',
    );
    expect(() => exposure.locations.list({ modifiedSince: '2026-13-01' })).toThrow(
      InvalidArgumentError,
    );
    expect(() => exposure.locations.list({ prefetch: 0 })).toThrow('prefetch');
    expect(sb.stats().totals.requests).toBe(0);
  });
});

describe('locations.page', () => {
  it('reads one page from an offset', async () => {
    const page = await client().locations.page({ limit: 10, offset: 5 });
    expect(page.map(id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `LOC-${String(i + 6).padStart(7, '0')}`),
    );
  });

  it('reads the default 128 records, and nothing past the end', async () => {
    const exposure = client();
    expect(await exposure.locations.page()).toHaveLength(128);
    expect(await exposure.locations.page({ offset: SIZE })).toEqual([]);
    expect(await exposure.locations.page({ offset: SIZE - 2, limit: 1024 })).toHaveLength(2);
  });

  it('filters by modifiedSince', async () => {
    const exposure = client();
    const [last] = await exposure.locations.page({ offset: SIZE - 1, limit: 1 });
    const since = String(last?.['modifiedDate']);
    const page = await exposure.locations.page({ modifiedSince: since, limit: 1024 });
    expect(page.length).toBeGreaterThan(0);
    expect(page.every((location) => String(location['modifiedDate']) >= since)).toBe(true);
    expect(page.at(-1)).toEqual(last);
  });

  it('refuses a bad limit or modifiedSince before any request', async () => {
    const exposure = client();
    await expect(exposure.locations.page({ limit: 1025 })).rejects.toThrow(
      'locations.page: options.limit must be an integer from 1 to 1024 (got 1025)',
    );
    await expect(exposure.locations.page({ modifiedSince: 'yesterday' })).rejects.toThrow(
      'locations.page: options.modifiedSince must be a Date or a YYYY-MM-DD day (got "yesterday")',
    );
    await expect(exposure.locations.page({ limit: 5, nope: 1 } as never)).rejects.toThrow(
      InvalidArgumentError,
    );
    expect(sb.stats().totals.requests).toBe(0);
  });

  it('sends an offset that breaks only what the spec assumes, with a warning', async () => {
    // The documents do not say what offset counts or where it starts (x-upstream-gap), so
    // the client cannot know that -1 is wrong; the sandbox, which plays our guess, refuses it.
    const warnings: string[] = [];
    const exposure = client({ logger: { warn: (message: string) => warnings.push(message) } });
    await expect(exposure.locations.page({ offset: -1 })).rejects.toBeInstanceOf(ValidationError);
    expect(warnings.join('\n')).toContain('options.offset must be an integer of at least 0');
    const refusing = client({ assumptions: 'refuse' });
    const before = sb.stats().routes['exposure.listLocations']?.requests ?? 0;
    await expect(refusing.locations.page({ offset: -1 })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(sb.stats().routes['exposure.listLocations']?.requests ?? 0).toBe(before);
  });
});

describe('configuration', () => {
  const base = () => ({
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure,
  });

  it.each([
    [{ baseUrl: 'http://api.example.com' }, 'baseUrl: must use https'],
    [{ tokenUrl: 'http://auth.example.com/login/connect/token' }, 'tokenUrl: must use https'],
    [{ pageSize: 2000 }, 'pageSize: must be an integer from 1 to 1024 (got 2000)'],
    [{ prefetch: 0 }, 'prefetch: must be an integer from 1 to 32 (got 0)'],
    [{ timeout: { attemptMs: 0 } }, 'timeout.attemptMs'],
    [{ retry: { attempts: 11 } }, 'retry.attempts'],
    [{ rateLimit: 'platinum' }, 'rateLimit'],
    [{ userAgent: '' }, 'userAgent'],
  ])('refuses %o when the client is created', (overrides, message) => {
    expect(() => createExposureClient({ ...base(), ...(overrides as object) })).toThrow(message);
  });

  it('names the missing secret or key, without showing any credential', () => {
    const { clientSecret, subscriptionKeys } = sb.credentials.exposure;
    const cases: Array<[object, string]> = [
      [{ ...sb.credentials.exposure, clientSecret: '' }, 'credentials.clientSecret'],
      [
        { ...sb.credentials.exposure, subscriptionKeys: {} },
        'credentials.subscriptionKeys.primary',
      ],
    ];
    for (const [credentials, option] of cases) {
      const create = () => createExposureClient({ ...base(), credentials } as never);
      expect(create).toThrow(ConfigurationError);
      expect(create).toThrow(`${option}: `);
      try {
        create();
      } catch (error) {
        const shown = `${String(error)} ${JSON.stringify(error)}`;
        expect(shown).not.toContain(clientSecret);
        expect(shown).not.toContain(subscriptionKeys.primary);
      }
    }
  });

  it('allows plain HTTP on loopback hosts only', () => {
    expect(() =>
      client({ baseUrl: sb.urls.exposure.replace('127.0.0.1', 'localhost') }),
    ).not.toThrow();
  });
});

describe('authentication', () => {
  it('asks for one token with the exposure scopes and reuses it', async () => {
    const scopes: string[][] = [];
    const exposure = client({
      events: { onTokenRefresh: (event) => scopes.push([...event.scopes]) },
    });
    await exposure.locations.page({ limit: 1 });
    await exposure.locations.page({ limit: 1, offset: 1 });
    expect(scopes).toEqual([['Portal.Api', 'Portal.Api.Exposure']]);
    expect(route('auth.requestToken')?.tokenIssues).toBe(1);
  });

  it('gets a new token when the service no longer accepts the old one', async () => {
    const reasons: string[] = [];
    const exposure = client({ events: { onTokenRefresh: ({ reason }) => reasons.push(reason) } });
    await exposure.locations.page({ limit: 1 });
    sb.expireTokens();
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
    expect(reasons).toEqual(['initial', 'unauthorized']);
    expect(route('exposure.listLocations')?.unauthorized).toBe(1);
  });

  it('refreshes a token before it expires, by the lifetime the endpoint gave', async () => {
    let now = Date.now();
    sb.setTokenLifetime(600);
    const reasons: string[] = [];
    const exposure = client({
      clock: () => now,
      events: {
        onTokenRefresh: ({ reason, lifetimeSeconds }) =>
          reasons.push(`${reason} ${lifetimeSeconds}`),
      },
    });
    await exposure.locations.page({ limit: 1 });
    now += 590_000; // within the refresh margin, still valid
    await exposure.locations.page({ limit: 1 });
    now += 700_000; // past expiry
    await exposure.locations.page({ limit: 1 });
    expect(reasons).toEqual(['initial 600', 'expiring 600', 'expired 600']);
    expect(route('exposure.listLocations')?.unauthorized).toBe(0);
  });

  it('fails over to the secondary key when the service refuses the primary', async () => {
    const failovers: string[] = [];
    const keys: string[] = [];
    // The primary key is revoked right after the token was issued with it.
    const revokingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (url === sb.urls.tokenUrl) sb.revokeKey('exposure', 'primary');
      else keys.push(new Headers(init?.headers).get('ocp-apim-subscription-key') ?? '');
      return response;
    };
    const exposure = client({
      fetch: revokingFetch,
      events: { onKeyFailover: ({ refusedBy }) => failovers.push(refusedBy) },
    });
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
    const { primary, secondary } = sb.credentials.exposure.subscriptionKeys;
    expect(keys).toEqual([primary, secondary, secondary]);
    expect(failovers).toEqual(['data-request']);
    expect(route('auth.requestToken')?.tokenIssues).toBe(1);
  });

  it('fails over to the secondary key when the token endpoint refuses a revoked primary', async () => {
    sb.revokeKey('exposure', 'primary');
    const failovers: string[] = [];
    const exposure = client({
      events: { onKeyFailover: ({ refusedBy }) => failovers.push(refusedBy) },
    });
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
    expect(failovers).toEqual(['token-request']);
    expect(route('auth.requestToken')).toMatchObject({ requests: 2, tokenIssues: 1 });
    expect(route('exposure.listLocations')?.unauthorized).toBe(0);
  });

  it('throws TokenError when the client secret is wrong', async () => {
    const exposure = client({ credentials: { ...sb.credentials.exposure, clientSecret: 'wrong' } });
    const error = await exposure.locations.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it('keeps the tokens of different scopes apart, even for one client ID', async () => {
    const tokenCache = createTokenCache();
    const exposure = client({ tokenCache });
    await exposure.locations.page({ limit: 1 });
    // Same token URL, client ID and cache, other scopes: the cached exposure token is not used;
    // the token endpoint is asked, and refuses the scope this client was not issued.
    const otherOptions = { ...options(), tokenCache };
    const other = createServiceClient<paths, typeof service>(
      otherOptions,
      oauth2Service(otherOptions, ['Portal.Api', 'Portal.Api.RiskEngineering'], service),
    );
    const error = await other.raw
      .GET('/open/portal-api/exposure/locations')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ error: 'invalid_scope' });
    expect(route('auth.requestToken')?.requests).toBe(2);
    expect(await exposure.locations.page({ limit: 1 })).toHaveLength(1);
  });
});

describe('errors', () => {
  it('retries a 503 and returns the page', async () => {
    sb.fault('exposure.listLocations', { sequence: [503, 503] });
    const retries: number[] = [];
    const exposure = client({ events: { onRetry: ({ attempt }) => retries.push(attempt) } });
    expect(await exposure.locations.page({ limit: 3 })).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
    expect(route('exposure.listLocations')?.faults).toBe(2);
  });

  it('throws ServiceUnavailableError when every attempt gets a 503', async () => {
    sb.fault('exposure.listLocations', { sequence: [503, 503, 503] });
    const error = await client()
      .locations.page()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, method: 'GET' });
    expect((error as ApiError).correlationId).toBeTruthy();
  });

  it('fails a list on a page that keeps failing, and stops the others', async () => {
    sb.fault('exposure.listLocations', { every: [{ n: 3, action: 'html502' }] });
    const exposure = client({ retry: { attempts: 1 } });
    await expect(
      collect(exposure.locations.list({ pageSize: 100, prefetch: 1 })),
    ).rejects.toBeInstanceOf(BadGatewayError);
  });

  it('throws AuthenticationError when the service refuses even a fresh token', async () => {
    sb.fault('exposure.listLocations', { sequence: [401, 401, 401] });
    const error = await client()
      .locations.page()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'authentication_error' });
  });

  it('throws ValidationError with the pointer the service names', async () => {
    const { raw } = client();
    const error = await raw
      .GET('/open/portal-api/exposure/locations', { params: { query: { limit: 5000 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).causes.map((cause) => cause.field)).toEqual(['/limit']);
  });

  it('throws ConnectionError when every attempt is reset', async () => {
    sb.fault('exposure.listLocations', { sequence: ['reset', 'reset', 'reset'] });
    await expect(client().locations.page()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('throws an ApiError for a body that is not the array of records, or cut off', async () => {
    sb.fault('exposure.listLocations', { sequence: ['malformed'] });
    await expect(client().locations.page()).rejects.toMatchObject({
      name: 'ApiError',
      code: 'unexpected_response',
    });
    sb.fault('exposure.listLocations', { sequence: ['truncate', 'truncate', 'truncate'] });
    const cutOff = await client()
      .locations.page()
      .catch((e: unknown) => e);
    expect(cutOff).toBeInstanceOf(ApiError);
    expect(cutOff).toMatchObject({ status: 200 });
  });
});

describe('createExposureClient and options it does not know', () => {
  it('tells the logger of a slip, and knows the token, key and paging options', () => {
    const warnings: string[] = [];
    createExposureClient(
      options({
        rateLimit: 'gold',
        scopeSeparator: ' ',
        subscriptionKeyHeader: 'Ocp-Apim-Subscription-Key',
        pageSize: 100,
        prefetch: 2,
        logger: { warn: (message: string) => warnings.push(message) },
        ...{ pagesize: 50 },
      }),
    );
    expect(warnings).toEqual(['unknown option pagesize is ignored; did you mean pageSize?']);
  });
});
