import type { TestHooks } from '@partner-apis/core/testing';
import { createTokenCache } from '@partner-apis/auth';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InvalidArgumentError,
  ServiceUnavailableError,
  TokenError,
  ValidationError,
} from '@partner-apis/errors';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createRiskEngineeringClient,
  type Grading,
  type RiskEngineeringClientOptions,
  type RiskLocation,
} from './index.js';

const GRADINGS = 900;
const LOCATIONS = 700;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 5, sizes: { gradings: GRADINGS, riskLocations: LOCATIONS } });
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.clearFaults();
  sb.restoreKeys();
  sb.setTokenLifetime(3600);
  sb.resetStats();
});

/** Options with a token cache of their own, so each test counts its own token requests. */
function options(overrides: Partial<RiskEngineeringClientOptions> = {}) {
  return {
    baseUrl: sb.urls.riskEngineering,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.riskEngineering,
    tokenCache: createTokenCache(),
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...overrides,
  };
}

const client = (overrides: Partial<RiskEngineeringClientOptions> & TestHooks = {}) =>
  createRiskEngineeringClient(options(overrides));

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

const gradingId = (grading: Grading) => grading['gradingId'];
const locationId = (location: RiskLocation) => location['locationId'];
const route = (name: string) => sb.stats().routes[name];

describe('gradings', () => {
  it('lists every grading exactly once, in order', async () => {
    const gradings = await collect(client().gradings.list({ pageSize: 256 }));
    expect(gradings).toHaveLength(GRADINGS);
    expect(new Set(gradings.map(gradingId)).size).toBe(GRADINGS);
    expect(gradings.map(gradingId).slice(0, 2)).toEqual(['GRD-0000001', 'GRD-0000002']);
    expect(gradingId(gradings[GRADINGS - 1] as Grading)).toBe('GRD-0000900');
  });

  it('gives the same gradings with prefetch 8 as with prefetch 1', async () => {
    const risk = client({ pageSize: 64 });
    const one = await collect(risk.gradings.list({ prefetch: 1 }));
    expect(await collect(risk.gradings.list({ prefetch: 8 }))).toEqual(one);
    expect(one).toHaveLength(GRADINGS);
  });

  it('lists only the gradings modified since a day', async () => {
    const risk = client();
    const all = await collect(risk.gradings.list({ pageSize: 1024 }));
    const since = String((all[600] as Grading)['modifiedDate']);
    const expected = all.filter((grading) => String(grading['modifiedDate']) >= since);
    expect(expected.length).toBeLessThan(GRADINGS);
    expect(await collect(risk.gradings.list({ modifiedSince: since }))).toEqual(expected);
    const page = await risk.gradings.page({ modifiedSince: new Date(since), limit: 1024 });
    expect(page).toEqual(expected);
  });

  it('reads one page from an offset', async () => {
    const page = await client().gradings.page({ limit: 3, offset: 10 });
    expect(page.map(gradingId)).toEqual(['GRD-0000011', 'GRD-0000012', 'GRD-0000013']);
    expect(await client().gradings.page({ offset: GRADINGS })).toEqual([]);
  });

  it('aborts the pages in flight when the loop is left', async () => {
    const held: AbortSignal[] = [];
    const settled: Array<Promise<unknown>> = [];
    const slowFetch: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const signal = init?.signal;
      if (
        !url.pathname.endsWith('/Gradings') ||
        url.searchParams.get('offset') === '0' ||
        !signal
      ) {
        return fetch(input, init);
      }
      held.push(signal);
      const never = new Promise<Response>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      settled.push(never.catch((error: unknown) => error));
      return never;
    };
    const risk = client({ fetch: slowFetch, pageSize: 10, prefetch: 6 });
    const seen: Grading[] = [];
    for await (const grading of risk.gradings.list()) {
      seen.push(grading);
      if (seen.length === 2) break;
    }
    expect(seen.map(gradingId)).toEqual(['GRD-0000001', 'GRD-0000002']);
    expect(held.length).toBeGreaterThanOrEqual(5);
    await Promise.all(settled);
    expect(held.every((signal) => signal.aborted)).toBe(true);
  });
});

describe('locations', () => {
  it('lists every location exactly once, in order', async () => {
    const locations = await collect(client().locations.list({ pageSize: 200, prefetch: 3 }));
    expect(locations).toHaveLength(LOCATIONS);
    expect(new Set(locations.map(locationId)).size).toBe(LOCATIONS);
    expect(locationId(locations[0] as RiskLocation)).toBe('LOC-0000001');
    expect(locationId(locations[LOCATIONS - 1] as RiskLocation)).toBe('LOC-0000700');
  });

  it('gives the same locations with prefetch 8 as with prefetch 1', async () => {
    const risk = client({ pageSize: 100 });
    const one = await collect(risk.locations.list({ prefetch: 1 }));
    expect(await collect(risk.locations.list({ prefetch: 8 }))).toEqual(one);
  });

  it('filters by modifiedSince and reads pages', async () => {
    const risk = client();
    const [last] = await risk.locations.page({ offset: LOCATIONS - 1, limit: 1 });
    const since = String(last?.['modifiedDate']);
    const recent = await collect(risk.locations.list({ modifiedSince: since }));
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((location) => String(location['modifiedDate']) >= since)).toBe(true);
    expect(recent.at(-1)).toEqual(last);
    expect(await risk.locations.page()).toHaveLength(128);
  });

  it('names the operation in an argument error, before any request', async () => {
    const risk = client();
    expect(() => risk.locations.list({ modifiedSince: '2026-1-5' })).toThrow(
      'locations.list: options.modifiedSince must be a Date or a YYYY-MM-DD day (got "2026-1-5")',
    );
    await expect(risk.gradings.page({ limit: 4096 })).rejects.toThrow(
      new InvalidArgumentError(
        'options.limit',
        'must be an integer from 1 to 1024 (got 4096)',
        'gradings.page',
      ),
    );
    expect(sb.stats().totals.requests).toBe(0);
  });
});

describe('configuration', () => {
  it.each([
    [{ baseUrl: 'http://risk.example.com' }, 'baseUrl: must use https'],
    [{ tokenUrl: 'ftp://auth.example.com/token' }, 'tokenUrl: must use https'],
    [{ pageSize: 1025 }, 'pageSize: must be an integer from 1 to 1024 (got 1025)'],
    [{ prefetch: 0 }, 'prefetch: must be an integer from 1 to 32 (got 0)'],
    [{ scopeSeparator: '' }, 'scopeSeparator'],
  ])('refuses %o when the client is created', (overrides, message) => {
    expect(() => client(overrides as Partial<RiskEngineeringClientOptions>)).toThrow(message);
  });

  it('names a missing secret without showing the keys', () => {
    const credentials = { ...sb.credentials.riskEngineering, clientSecret: undefined };
    const create = () => client({ credentials: credentials as never });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(/^credentials\.clientSecret: /);
  });
});

describe('authentication', () => {
  it('asks for one token with the risk engineering scopes for both collections', async () => {
    const scopes: string[][] = [];
    const risk = client({ events: { onTokenRefresh: (event) => scopes.push([...event.scopes]) } });
    await risk.gradings.page({ limit: 1 });
    await risk.locations.page({ limit: 1 });
    expect(scopes).toEqual([['Portal.Api', 'Portal.Api.RiskEngineering']]);
  });

  it('gets a new token when the service no longer accepts the old one', async () => {
    const reasons: string[] = [];
    const risk = client({ events: { onTokenRefresh: ({ reason }) => reasons.push(reason) } });
    await risk.gradings.page({ limit: 1 });
    sb.expireTokens();
    expect(await collect(risk.gradings.list({ pageSize: 1024 }))).toHaveLength(GRADINGS);
    expect(reasons).toEqual(['initial', 'unauthorized']);
  });

  it('refreshes by the lifetime the token endpoint gives', async () => {
    let now = Date.now();
    sb.setTokenLifetime(300);
    const reasons: string[] = [];
    const risk = client({
      clock: () => now,
      events: { onTokenRefresh: ({ reason }) => reasons.push(reason) },
    });
    await risk.locations.page({ limit: 1 });
    now += 301_000;
    await risk.locations.page({ limit: 1 });
    expect(reasons).toEqual(['initial', 'expired']);
  });

  it('fails over to the secondary key when the service refuses the primary', async () => {
    const failovers: string[] = [];
    const revokingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input) === sb.urls.tokenUrl) sb.revokeKey('riskEngineering', 'primary');
      return response;
    };
    const risk = client({
      fetch: revokingFetch,
      events: { onKeyFailover: ({ refusedBy }) => failovers.push(refusedBy) },
    });
    expect(await risk.gradings.page({ limit: 2 })).toHaveLength(2);
    expect(await risk.locations.page({ limit: 2 })).toHaveLength(2);
    expect(failovers).toEqual(['data-request']);
    expect(route('riskEngineering.listGradings')?.unauthorized).toBe(1);
    expect(route('riskEngineering.listRiskLocations')?.unauthorized).toBe(0);
  });

  it('keeps a token to its client ID and scopes, even in a shared cache', async () => {
    const tokenCache = createTokenCache();
    const risk = client({ tokenCache });
    await risk.gradings.page({ limit: 1 });
    // The exposure client ID with the same cache asks for its own token, and the token endpoint
    // refuses it the risk engineering scope.
    const borrowing = client({ tokenCache, credentials: sb.credentials.exposure });
    const error = await borrowing.gradings.page({ limit: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_scope' });
  });

  it('throws TokenError when the client secret is wrong', async () => {
    const credentials = { ...sb.credentials.riskEngineering, clientSecret: 'not-it' };
    await expect(client({ credentials }).gradings.page()).rejects.toMatchObject({
      name: 'TokenError',
      error: 'invalid_client',
    });
  });
});

describe('errors', () => {
  it('retries a 503 and throws ServiceUnavailableError when it persists', async () => {
    sb.fault('riskEngineering.listGradings', { sequence: [503] });
    expect(await client().gradings.page({ limit: 1 })).toHaveLength(1);
    sb.fault('riskEngineering.listGradings', { sequence: [503, 503, 503] });
    await expect(client().gradings.page()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('throws AuthenticationError when even a fresh token is refused', async () => {
    sb.fault('riskEngineering.listRiskLocations', { sequence: [401, 401, 401] });
    const error = await client()
      .locations.page()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'authentication_error' });
  });

  it('throws ValidationError with the pointer of the refused parameter', async () => {
    const { raw } = client();
    const error = await raw
      .GET('/open/portal-api/riskengineering/Locations', { params: { query: { offset: -3 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).causes.map((cause) => cause.field)).toEqual(['/offset']);
  });

  it('throws ConnectionError when every attempt is reset', async () => {
    sb.fault('riskEngineering.*', { sequence: ['reset', 'reset', 'reset'] });
    await expect(client().locations.page()).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('createRiskEngineeringClient and options it does not know', () => {
  it('tells the logger of a slip, and knows the token, key and paging options', () => {
    const warnings: string[] = [];
    createRiskEngineeringClient(
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
