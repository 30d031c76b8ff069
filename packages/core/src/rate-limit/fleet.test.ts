import {
  TokenCache,
  clientIdHeaders,
  createTokenCache,
  type CachedToken,
} from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createClientPipeline,
  createServiceClient,
  oauth2Service,
  type OAuth2ServiceClientOptions,
  type Fleet,
  type FleetRateScope,
} from '../index.js';

/** A spec whose client sets no header of its own. */
const NO_TRACING = { operations: {}, securitySchemes: {}, tracingHeaders: {} } as const;

interface paths {
  '/data': {
    get: { responses: { 200: { content: { 'application/json': { ok: boolean } } } } };
  };
}

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fleet whose limiter waits for nothing asynchronously and records what it was asked. */
function recordingFleet() {
  const scopes: FleetRateScope[] = [];
  let takes = 0;
  const tokenCache = createTokenCache();
  const fleet: Fleet = {
    rateLimiter(scope) {
      scopes.push(scope);
      return {
        take: async () => {
          takes += 1;
          return { sent: () => undefined };
        },
      };
    },
    tokenCache,
    close: async () => undefined,
  };
  return { fleet, scopes, tokenCache, takes: () => takes };
}

describe('fleet option', () => {
  it('paces every attempt with the fleet limiter, kept per client ID, address and rate', async () => {
    server = await startFaultServer({ '/data': [{ status: 503 }, { body: { ok: true } }] });
    const { fleet, scopes, takes } = recordingFleet();
    const pipeline = createClientPipeline({
      baseUrl: server.url,
      auth: clientIdHeaders({ clientId: 'client-7', clientSecret: 'not-a-real-secret' }),
      rateLimit: 'silver',
      retry: { baseDelayMs: 0 },
      fleet,
    });
    const response = await pipeline.fetch(new Request(`${server.url}/data`));
    expect(await response.json()).toEqual({ ok: true });
    expect(takes()).toBe(2);
    expect(scopes).toHaveLength(1);
    expect(scopes[0]).toMatchObject({
      baseUrl: server.url,
      clientId: 'client-7',
      rate: { requestsPerSecond: 10 },
    });
  });

  it('asks the fleet once per client ID, and again only for a stricter rate', () => {
    const { fleet, scopes } = recordingFleet();
    const pipeline = (clientId: string, rateLimit: 'silver' | 'bronze') =>
      createClientPipeline({
        baseUrl: 'https://api.example.com',
        auth: clientIdHeaders({ clientId, clientSecret: 'not-a-real-secret' }),
        rateLimit,
        fleet,
      });
    pipeline('client-8', 'silver');
    pipeline('client-8', 'silver');
    pipeline('client-9', 'silver');
    expect(scopes.map((scope) => scope.clientId)).toEqual(['client-8', 'client-9']);
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      pipeline('client-8', 'bronze');
    } finally {
      warning.mockRestore();
    }
    expect(scopes.map((scope) => [scope.clientId, scope.rate.requestsPerSecond])).toEqual([
      ['client-8', 10],
      ['client-9', 10],
      ['client-8', 1],
    ]);
  });

  it('asks the fleet for no limiter when the client has no rate limit', () => {
    const { fleet, scopes } = recordingFleet();
    createClientPipeline({ baseUrl: 'https://api.example.com', fleet });
    expect(scopes).toHaveLength(0);
  });

  it('keeps OAuth 2.0 tokens in the fleet token cache', async () => {
    server = await startFaultServer({
      '/token': [{ body: { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 } }],
      '/data': [{ body: { ok: true } }, { body: { ok: true } }],
    });
    const { fleet } = recordingFleet();
    const flights: string[] = [];
    class RecordingCache extends TokenCache {
      override singleFlight(key: string, request: () => Promise<CachedToken>) {
        flights.push(key);
        return super.singleFlight(key, request);
      }
    }
    const shared = { ...fleet, tokenCache: new RecordingCache() };
    const client = () => {
      const options: OAuth2ServiceClientOptions = {
        baseUrl: server!.url,
        tokenUrl: `${server!.url}/token`,
        credentials: {
          clientId: 'client-1',
          clientSecret: 'not-a-real-secret',
          subscriptionKeys: { primary: 'key-1' },
        },
        fleet: shared,
      };
      return createServiceClient<paths, typeof NO_TRACING>(
        options,
        oauth2Service(options, ['Portal.Api'], NO_TRACING),
      );
    };
    await client().raw.GET('/data');
    await client().raw.GET('/data');
    expect(flights).toHaveLength(1);
    expect(server.requestsTo('/token')).toHaveLength(1);
  });

  it.each([[{}], ['redis://localhost'], [{ rateLimiter: () => undefined }]])(
    'refuses %j as a fleet, naming the option',
    (fleet) => {
      expect(() =>
        createClientPipeline({ baseUrl: 'https://api.example.com', fleet: fleet as never }),
      ).toThrow(new ConfigurationError('fleet', 'must be a fleet, e.g. createRedisFleet({ url })'));
    },
  );
});
