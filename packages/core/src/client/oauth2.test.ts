import { inspect } from 'node:util';
import {
  createTokenCache,
  oauth2ClientCredentials,
  type AuthContext,
  type AuthScheme,
  type KeyFailoverEvent,
  type OAuth2ClientCredentialsOptions,
  type TokenCache,
  type TokenRefreshEvent,
} from '@partner-apis/auth';
import { AuthenticationError, ServiceUnavailableError, TokenError } from '@partner-apis/errors';
import {
  createVirtualTime,
  startFaultServer,
  type FaultRoutes,
  type FaultServer,
  type FaultStep,
  type RecordedRequest,
} from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientPipeline, type PipelineOptions } from '../index.js';

const CLIENT_ID = 'client:id';
const SECRET = 's:%+é-secret';
const PRIMARY = 'primary-key-1111';
const SECONDARY = 'secondary-key-2222';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = (accessToken: string, expiresIn?: number): FaultStep => ({
  body: { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn },
});
const unauthorized: FaultStep = {
  status: 401,
  body: { code: 'authentication_error', message: 'Invalid token.', correlationId: 'c-401' },
};
const data: FaultStep = { body: { items: [] } };

async function setUp(
  routes: FaultRoutes,
  auth: Partial<OAuth2ClientCredentialsOptions> = {},
  pipeline: Partial<PipelineOptions> = {},
) {
  server = await startFaultServer(routes);
  const time = createVirtualTime();
  const refreshes: TokenRefreshEvent[] = [];
  const failovers: KeyFailoverEvent[] = [];
  const tokenCache: TokenCache = createTokenCache();
  const scheme = oauth2ClientCredentials({
    tokenUrl: `${server.url}/token`,
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    scopes: ['Portal.Api', 'Portal.Api.Exposure'],
    subscriptionKeys: { primary: PRIMARY, secondary: SECONDARY },
    tokenCache,
    ...auth,
  });
  const client = createClientPipeline({
    baseUrl: server.url,
    auth: scheme,
    clock: time.now,
    sleep: time.sleep,
    random: () => 0.5,
    events: {
      onTokenRefresh: (event) => refreshes.push(event),
      onKeyFailover: (event) => failovers.push(event),
    },
    ...pipeline,
  });
  const call = (init?: RequestInit) => client.fetch(new Request(`${server?.url}/data`, init));
  const tokens = () => server?.requestsTo('/token') ?? [];
  const calls = () => server?.requestsTo('/data') ?? [];
  return { scheme, client, call, time, refreshes, failovers, tokens, calls, tokenCache };
}

const bearer = (request: RecordedRequest | undefined) => request?.headers.authorization;
const key = (request: RecordedRequest | undefined) => request?.headers['ocp-apim-subscription-key'];

describe("an auth scheme's fetch", () => {
  it('takes a URL with an init, a Request, or a Request with an init, as fetch does', async () => {
    server = await startFaultServer({
      '/token': [token('from-url'), token('from-request'), token('from-both')],
      '/data': [data, data, data],
    });
    const tokenUrl = `${server.url}/token`;
    const form = { method: 'POST', body: 'grant_type=client_credentials' };
    const asks = [
      (fetch: AuthContext['fetch']) => fetch(tokenUrl, form),
      (fetch: AuthContext['fetch']) => fetch(new Request(tokenUrl, form)),
      (fetch: AuthContext['fetch']) => fetch(new Request(tokenUrl), form),
    ];
    let calls = 0;
    const scheme: AuthScheme = {
      secretHeaderNames: [],
      async authorize(headers, context) {
        const response = await asks[calls++]!(context.fetch);
        const { access_token } = (await response.json()) as { access_token: string };
        headers.set('authorization', `Bearer ${access_token}`);
      },
    };
    const client = createClientPipeline({ baseUrl: server.url, auth: scheme });
    for (let i = 0; i < asks.length; i++) await client.fetch(new Request(`${server.url}/data`));
    expect(server.requestsTo('/token').map((r) => [r.method, r.body])).toEqual(
      asks.map(() => ['POST', 'grant_type=client_credentials']),
    );
    expect(server.requestsTo('/data').map(bearer)).toEqual([
      'Bearer from-url',
      'Bearer from-request',
      'Bearer from-both',
    ]);
  });
});

describe('OAuth 2.0 client credentials through the pipeline', () => {
  it('token 503 twice then 200: retried with backoff, then the data call carries the token', async () => {
    const { call, tokens, calls, time } = await setUp({
      '/token': [{ status: 503 }, { status: 503 }, token('tok-1', 3600)],
      '/data': [data],
    });
    expect((await call()).status).toBe(200);
    expect(tokens()).toHaveLength(3);
    expect(time.sleeps).toEqual([125, 250]);
    const [request] = tokens();
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body).toBe(
      'grant_type=client_credentials&scope=Portal.Api+Portal.Api.Exposure',
    );
    // RFC 6749 §2.3.1: both parts form-urlencoded before base64.
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from('client%3Aid:s%3A%25%2B%C3%A9-secret').toString('base64')}`,
    );
    expect(key(request)).toBe(PRIMARY);
    expect(request?.headers['x-z-request-id']).toBeUndefined();
    expect(bearer(calls()[0])).toBe('Bearer tok-1');
    expect(key(calls()[0])).toBe(PRIMARY);
  });

  it('token 503 on every attempt surfaces as ServiceUnavailableError of the token URL', async () => {
    const { call, tokens, calls } = await setUp({ '/token': [{ status: 503 }], '/data': [data] });
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).url).toBe(`${server?.url}/token`);
    expect(tokens()).toHaveLength(3);
    expect(calls()).toHaveLength(0);
  });

  it("a call's token retries come out of its own retries, so failures cannot multiply", async () => {
    const { call, tokens, calls } = await setUp({
      '/token': [{ status: 503 }, token('tok-1', 3600)],
      '/data': [{ status: 503 }, { status: 503 }, data],
    });
    // Three attempts in all: one token retry and one data retry use up the two retries.
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(tokens()).toHaveLength(2);
    expect(calls()).toHaveLength(2);
  });

  it('invalid_client: the secondary key tried once, not kept, no secret in the error', async () => {
    const { call, tokens, calls } = await setUp({
      '/token': [
        {
          status: 401,
          body: { error: 'invalid_client', error_description: `Secret ${SECRET} is wrong.` },
        },
      ],
      '/data': [data],
    });
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(tokens().map(key)).toEqual([PRIMARY, SECONDARY]);
    expect(calls()).toHaveLength(0);
    const shown = [
      String(error),
      JSON.stringify(error),
      inspect(error),
      (error as Error).stack,
    ].join('\n');
    for (const secret of [SECRET, PRIMARY, SECONDARY, tokens()[0]?.headers.authorization ?? '']) {
      expect(shown).not.toContain(secret);
    }
    expect(shown).toContain('check the client ID and secret');
  });

  it('invalid_scope (400) is a TokenError too, and not retried', async () => {
    const { call, tokens } = await setUp({
      '/token': [{ status: 400, body: { error: 'invalid_scope' } }],
      '/data': [data],
    });
    await expect(call()).rejects.toMatchObject({ name: 'TokenError', error: 'invalid_scope' });
    expect(tokens()).toHaveLength(1);
  });

  it('a 200 without an access token is a TokenError', async () => {
    const { call } = await setUp({ '/token': [{ body: '<html>login</html>' }], '/data': [data] });
    await expect(call()).rejects.toMatchObject({ error: 'invalid_token_response' });
  });

  it('no expires_in: the default lifetime is assumed and reported', async () => {
    const { call, tokens, refreshes, time } = await setUp(
      { '/token': [token('tok-1'), token('tok-2')], '/data': [data] },
      { defaultLifetimeSeconds: 600 },
    );
    await call();
    expect(refreshes[0]).toMatchObject({
      reason: 'initial',
      lifetimeSeconds: 600,
      lifetimeAssumed: true,
      expiresAt: time.now() + 600_000,
    });
    time.advance(479_000); // the margin is 2 minutes: refresh from 480 s on
    await call();
    expect(tokens()).toHaveLength(1);
    time.advance(2_000);
    await call();
    expect(tokens()).toHaveLength(2);
    expect(refreshes[1]?.reason).toBe('expiring');
  });

  it('50 concurrent calls → 1 token request', async () => {
    const { call, tokens, calls } = await setUp({
      '/token': [{ ...token('tok-1', 3600), delayMs: 50 }],
      '/data': [data],
    });
    const responses = await Promise.all(Array.from({ length: 50 }, () => call()));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(tokens()).toHaveLength(1);
    expect(calls()).toHaveLength(50);
    expect(new Set(calls().map(bearer))).toEqual(new Set(['Bearer tok-1']));
  });

  it('clients of the process share one token per token URL, client ID, scope set and secret', async () => {
    server = await startFaultServer({ '/token': [token('tok-1', 3600)], '/data': [data] });
    const tokenCache = createTokenCache();
    const scheme = (scopes: OAuth2ClientCredentialsOptions['scopes'], clientSecret = SECRET) =>
      oauth2ClientCredentials({
        tokenUrl: `${server?.url}/token`,
        clientId: CLIENT_ID,
        clientSecret,
        scopes,
        subscriptionKeys: { primary: PRIMARY },
        tokenCache,
      });
    const exposureA = createClientPipeline({
      baseUrl: server.url,
      auth: scheme(['Portal.Api', 'Portal.Api.Exposure']),
    });
    const exposureB = createClientPipeline({
      baseUrl: server.url,
      auth: scheme(['Portal.Api.Exposure', 'Portal.Api']),
    });
    const risk = createClientPipeline({
      baseUrl: server.url,
      auth: scheme(['Portal.Api', 'Portal.Api.RiskEngineering']),
    });
    // Same client ID and scopes with another secret: never the first client's token.
    const exposureOtherSecret = createClientPipeline({
      baseUrl: server.url,
      auth: scheme(['Portal.Api', 'Portal.Api.Exposure'], 'another-secret'),
    });
    for (const client of [exposureA, exposureB, risk, exposureOtherSecret]) {
      await client.fetch(new Request(`${server.url}/data`));
    }
    expect(server.requestsTo('/token').map((r) => r.body)).toEqual([
      'grant_type=client_credentials&scope=Portal.Api+Portal.Api.Exposure',
      'grant_type=client_credentials&scope=Portal.Api+Portal.Api.RiskEngineering',
      'grant_type=client_credentials&scope=Portal.Api+Portal.Api.Exposure',
    ]);
  });

  it('401 → one refresh → success', async () => {
    const { call, tokens, calls, refreshes, failovers, time } = await setUp({
      '/token': [token('tok-1', 3600), token('tok-2', 3600)],
      '/data': [data],
    });
    await call(); // tok-1 is cached now
    time.advance(60_000);
    server?.setScript({
      '/token': [token('tok-2', 3600)],
      '/data': [unauthorized, data],
    });
    expect((await call()).status).toBe(200);
    expect(tokens()).toHaveLength(2);
    expect(calls().map(bearer)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    expect(refreshes.map((r) => r.reason)).toEqual(['initial', 'unauthorized']);
    expect(failovers).toEqual([]);
    await call();
    expect(tokens()).toHaveLength(2);
  });

  it('second 401 surfaces (no secondary key)', async () => {
    const { call, tokens, calls } = await setUp(
      { '/token': [token('tok-1', 3600), token('tok-2', 3600)], '/data': [data] },
      { subscriptionKeys: { primary: PRIMARY } },
    );
    await call();
    server?.setScript({ '/token': [token('tok-2', 3600)], '/data': [unauthorized] });
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'authentication_error', correlationId: 'c-401' });
    expect(tokens()).toHaveLength(2);
    expect(calls()).toHaveLength(3);
    expect(JSON.stringify(error) + inspect(error)).not.toContain('tok-2');
  });

  it('proactive refresh with a fake clock: before the margin nothing, within it a new token', async () => {
    const { call, tokens, calls, time } = await setUp({
      '/token': [token('tok-1', 3600), token('tok-2', 3600)],
      '/data': [data],
    });
    await call();
    // Margin: the larger of 2 minutes and 10 % of 3600 s, so 360 s.
    time.advance((3600 - 360 - 1) * 1000);
    await call();
    expect(tokens()).toHaveLength(1);
    time.advance(2000);
    await call();
    expect(tokens()).toHaveLength(2);
    expect(calls().map(bearer)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('a failed proactive refresh keeps the still-valid token', async () => {
    const { call, tokens, calls, time } = await setUp({
      '/token': [token('tok-1', 3600), { status: 400, body: { error: 'invalid_client' } }],
      '/data': [data],
    });
    await call();
    time.advance(3500 * 1000);
    expect((await call()).status).toBe(200);
    expect(tokens()).toHaveLength(2);
    expect(bearer(calls()[1])).toBe('Bearer tok-1');
    await call(); // the next try waits until halfway to expiry
    expect(tokens()).toHaveLength(2);
  });

  it('a configured refresh margin is honoured', async () => {
    const { call, tokens, time } = await setUp(
      { '/token': [token('tok-1', 3600), token('tok-2', 3600)], '/data': [data] },
      { refreshMarginSeconds: 30 },
    );
    await call();
    time.advance(3569 * 1000);
    await call();
    expect(tokens()).toHaveLength(1);
    time.advance(2000);
    await call();
    expect(tokens()).toHaveLength(2);
  });

  it('primary key refused → secondary used and remembered', async () => {
    const byKey = (request: RecordedRequest): FaultStep =>
      key(request) === PRIMARY ? unauthorized : data;
    const { scheme, call, tokens, calls, failovers } = await setUp({
      '/token': [token('tok-1', 3600)],
      '/data': byKey,
    });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    expect(calls().map(key)).toEqual([PRIMARY, SECONDARY, SECONDARY]);
    expect(calls().map(bearer)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-1']);
    expect(tokens()).toHaveLength(1);
    expect(failovers).toEqual([{ from: 'primary', to: 'secondary', refusedBy: 'data-request' }]);
    expect(scheme.activeSubscriptionKey).toBe('secondary');
  });

  it('a primary key revoked later: refresh first, then the secondary takes over', async () => {
    const { call, tokens, calls, failovers } = await setUp({
      '/token': [token('tok-1', 3600), token('tok-2', 3600)],
      '/data': [data],
    });
    await call();
    server?.setScript({
      '/token': [token('tok-2', 3600)],
      '/data': (request) => (key(request) === PRIMARY ? unauthorized : data),
    });
    expect((await call()).status).toBe(200);
    expect(calls().map((r) => [bearer(r), key(r)])).toEqual([
      ['Bearer tok-1', PRIMARY],
      ['Bearer tok-1', PRIMARY],
      ['Bearer tok-2', PRIMARY],
      ['Bearer tok-2', SECONDARY],
    ]);
    expect(tokens()).toHaveLength(2);
    expect(failovers).toHaveLength(1);
  });

  it('the token endpoint refusing the primary key (gateway 401) fails over too', async () => {
    const { call, tokens, calls, failovers } = await setUp({
      '/token': (request) =>
        key(request) === PRIMARY
          ? { status: 401, body: { statusCode: 401, message: 'Access denied: invalid key.' } }
          : token('tok-1', 3600),
      '/data': [data],
    });
    expect((await call()).status).toBe(200);
    expect(tokens().map(key)).toEqual([PRIMARY, SECONDARY]);
    expect(key(calls()[0])).toBe(SECONDARY);
    expect(failovers).toEqual([{ from: 'primary', to: 'secondary', refusedBy: 'token-request' }]);
  });

  it('a caller giving up while the token is fetched does not fail the others', async () => {
    const { call, tokens } = await setUp({
      '/token': [{ ...token('tok-1', 3600), delayMs: 100 }],
      '/data': [data],
    });
    const controller = new AbortController();
    const impatient = call({ signal: controller.signal });
    const patient = call();
    await server?.waitForRequests(1);
    controller.abort(new Error('not waiting'));
    await expect(impatient).rejects.toThrow('not waiting');
    expect((await patient).status).toBe(200);
    expect(tokens()).toHaveLength(1);
  });
});
