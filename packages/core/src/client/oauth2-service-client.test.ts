import { createTokenCache, type Scope } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, oauth2Service, type OAuth2ServiceClientOptions } from '../index.js';

/** What a `create…Client` of an OAuth 2.0 service does with its options. */
function createOAuth2ServiceClient<Paths extends object>(
  given: OAuth2ServiceClientOptions,
  scopes: readonly Scope[],
) {
  return createServiceClient<Paths, typeof service>(given, oauth2Service(given, scopes, service));
}

/** A spec whose data requests carry the subscription key in a header, as codegen writes it. */
const service = {
  operations: {},
  securitySchemes: {
    subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' },
  },
  tracingHeaders: {},
} as const;

interface paths {
  '/data': {
    get: { responses: { 200: { content: { 'application/json': { ok: boolean } } } } };
  };
}

const SCOPES = ['Portal.Api', 'Portal.Api.Exposure'] as const;

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function options(overrides: Partial<OAuth2ServiceClientOptions> = {}): OAuth2ServiceClientOptions {
  return {
    baseUrl: 'https://api.example.com',
    tokenUrl: 'https://auth.example.com/login/connect/token',
    credentials: {
      clientId: 'client-1',
      clientSecret: 'not-a-real-secret',
      subscriptionKeys: { primary: 'key-1', secondary: 'key-2' },
    },
    ...overrides,
  };
}

function creationError(overrides: Record<string, unknown>): ConfigurationError {
  try {
    createOAuth2ServiceClient<paths>(options(overrides as never), SCOPES);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('the client was created');
}

describe('oauth2Service', () => {
  it('a token endpoint failing with 500 gets attempts × 1 token requests per call, client after client', async () => {
    server = await startFaultServer({ '/token': [{ status: 500 }], '/data': [{ body: {} }] });
    const counts: number[] = [];
    for (let client = 0; client < 2; client += 1) {
      const before = server.requestsTo('/token').length;
      const { raw } = createOAuth2ServiceClient<paths>(
        options({
          baseUrl: server.url,
          tokenUrl: `${server.url}/token`,
          retry: { attempts: 3, baseDelayMs: 0 },
        }),
        SCOPES,
      );
      await expect(raw.GET('/data')).rejects.toMatchObject({ status: 500 });
      counts.push(server.requestsTo('/token').length - before);
    }
    expect(counts).toEqual([3, 3]);
    expect(server.requestsTo('/data')).toHaveLength(0);
  });

  it('gets a token for its scopes and sends it with the subscription key', async () => {
    server = await startFaultServer({
      '/token': [{ body: { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 } }],
      '/data': [{ body: { ok: true } }],
    });
    const { raw } = createOAuth2ServiceClient<paths>(
      options({
        baseUrl: server.url,
        tokenUrl: `${server.url}/token`,
        userAgent: 'claims-portal/2.3',
        tokenCache: createTokenCache(),
      }),
      SCOPES,
    );
    expect((await raw.GET('/data')).data).toEqual({ ok: true });
    const [token] = server.requestsTo('/token');
    expect(new URLSearchParams(token?.body).get('scope')).toBe('Portal.Api Portal.Api.Exposure');
    expect(token?.headers.authorization).toBe(
      `Basic ${Buffer.from('client-1:not-a-real-secret').toString('base64')}`,
    );
    const [data] = server.requestsTo('/data');
    expect(data?.headers.authorization).toBe('Bearer token-1');
    expect(data?.headers['ocp-apim-subscription-key']).toBe('key-1');
    expect(data?.headers['user-agent']).toBe('claims-portal/2.3');
    expect(token?.headers['user-agent']).toBe('claims-portal/2.3');
  });

  it('joins the scopes with the separator and sends the key in the header it is told', async () => {
    server = await startFaultServer({
      '/token': [{ body: { access_token: 'token-2', token_type: 'Bearer' } }],
      '/data': [{ body: { ok: true } }],
    });
    const { raw } = createOAuth2ServiceClient<paths>(
      options({
        baseUrl: server.url,
        tokenUrl: `${server.url}/token`,
        scopeSeparator: ',',
        subscriptionKeyHeader: 'X-Key',
        tokenCache: createTokenCache(),
      }),
      SCOPES,
    );
    await raw.GET('/data');
    const [token] = server.requestsTo('/token');
    expect(new URLSearchParams(token?.body).get('scope')).toBe('Portal.Api,Portal.Api.Exposure');
    expect(token?.headers['x-key']).toBe('key-1');
    expect(server.requestsTo('/data')[0]?.headers['x-key']).toBe('key-1');
  });

  it('names each bad option as the caller wrote it', () => {
    const credentials = options().credentials;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tokenUrl: 'http://auth.example.com/token' }, 'tokenUrl'],
      [{ tokenUrl: undefined }, 'tokenUrl'],
      [{ baseUrl: 'http://api.example.com' }, 'baseUrl'],
      [{ credentials: { ...credentials, clientSecret: '' } }, 'credentials.clientSecret'],
      [{ credentials: { ...credentials, clientId: undefined } }, 'credentials.clientId'],
      [
        { credentials: { ...credentials, subscriptionKeys: {} } },
        'credentials.subscriptionKeys.primary',
      ],
      [{ credentials: 'id:secret' }, 'credentials'],
      [{ scopeSeparator: '' }, 'scopeSeparator'],
      [{ subscriptionKeyHeader: 'bad header' }, 'subscriptionKeyHeader'],
      [{ tokenCache: {} }, 'tokenCache'],
      [{ rateLimit: 'platinum' }, 'rateLimit'],
      [{ userAgent: 'a\r\nb' }, 'userAgent'],
      [{ credentials: { ...credentials, secretCreatedAt: 'soon' } }, 'credentials.secretCreatedAt'],
    ];
    for (const [overrides, option] of cases) {
      const error = creationError(overrides);
      expect(error.option, JSON.stringify(overrides)).toBe(option);
      expect(error.message.startsWith(`${option}: `)).toBe(true);
    }
  });

  it('never shows the secret or a key in a configuration error', () => {
    const error = creationError({
      tokenUrl: 'http://auth.example.com/token',
      credentials: {
        clientId: 'client-1',
        clientSecret: 'very-secret-value',
        subscriptionKeys: { primary: 'primary-key-value' },
      },
    });
    const shown = `${error.message} ${JSON.stringify(error)} ${String(error)}`;
    expect(shown).not.toContain('very-secret-value');
    expect(shown).not.toContain('primary-key-value');
  });

  it('refuses options that are not an object', () => {
    expect(() => createOAuth2ServiceClient<paths>(undefined as never, SCOPES)).toThrow(
      'options: must be an object',
    );
  });
});
