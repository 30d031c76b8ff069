import {
  basicAuth,
  clientIdHeaders,
  createTokenCache,
  oauth2ClientCredentials,
  type AuthScheme,
} from '@partner-apis/auth';
import { ApiError } from '@partner-apis/errors';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientPipeline } from '../index.js';

let servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...args: Parameters<typeof startFaultServer>): Promise<FaultServer> {
  const server = await startFaultServer(...args);
  servers.push(server);
  return server;
}

const SECRET = 'very-secret-9d2f';
const KEY = 'subscription-key-77aa';
const CREDENTIAL_HEADERS = [
  'authorization',
  'client_id',
  'client_secret',
  'ocp-apim-subscription-key',
];

function schemes(tokenUrl: string): Array<[string, AuthScheme, string[]]> {
  return [
    ['basicAuth', basicAuth({ clientId: 'id', clientSecret: SECRET }), ['authorization']],
    [
      'clientIdHeaders',
      clientIdHeaders({ clientId: 'id', clientSecret: SECRET }),
      ['client_id', 'client_secret'],
    ],
    [
      'oauth2ClientCredentials',
      oauth2ClientCredentials({
        tokenUrl,
        clientId: 'id',
        clientSecret: SECRET,
        scopes: ['Portal.Api'],
        subscriptionKeys: { primary: KEY },
        tokenCache: createTokenCache(),
      }),
      ['authorization', 'ocp-apim-subscription-key'],
    ],
  ];
}

describe('redirects', () => {
  it("Node's own fetch forwards custom credential headers across origins (why we follow by hand)", async () => {
    const elsewhere = await serve([{ body: 'elsewhere' }]);
    const origin = await serve([{ redirect: `${elsewhere.url}/landing` }]);
    await fetch(`${origin.url}/start`, { headers: { client_secret: SECRET } });
    expect(elsewhere.requests[0]?.headers['client_secret']).toBe(SECRET);
  });

  it('cross-origin redirect strips credentials, for every auth scheme', async () => {
    const token = await serve([{ body: { access_token: 'tok-1', token_type: 'Bearer' } }]);
    for (const [name, auth, sent] of schemes(`${token.url}/token`)) {
      const elsewhere = await serve([{ body: { landed: true } }]);
      const origin = await serve([{ redirect: `${elsewhere.url}/landing?x=1`, status: 307 }]);
      const { fetch } = createClientPipeline({ baseUrl: origin.url, auth });
      const response = await fetch(
        new Request(`${origin.url}/start`, { headers: { accept: 'application/json' } }),
      );
      expect(await response.json(), name).toEqual({ landed: true });
      const first = origin.requests[0]?.headers ?? {};
      for (const header of sent) expect(first[header], `${name} sends ${header}`).toBeDefined();
      const landed = elsewhere.requests[0]?.headers ?? {};
      for (const header of CREDENTIAL_HEADERS) {
        expect(landed[header], `${name} leaks ${header}`).toBeUndefined();
      }
      expect(JSON.stringify(landed)).not.toContain(SECRET);
      expect(JSON.stringify(landed)).not.toContain(KEY);
      expect(landed.accept).toBe('application/json');
      expect(landed['x-z-request-id']).toBe(first['x-z-request-id']);
    }
  });

  it('same-origin redirect keeps the credentials', async () => {
    const server = await serve({
      '/start': [{ redirect: '/landing' }],
      '/landing': [{ body: 'ok' }],
    });
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      auth: clientIdHeaders({ clientId: 'id', clientSecret: SECRET }),
    });
    expect(await (await fetch(new Request(`${server.url}/start`))).text()).toBe('ok');
    expect(server.requestsTo('/landing')[0]?.headers['client_secret']).toBe(SECRET);
  });

  it('credentials stay off after a cross-origin hop, even back on the first origin', async () => {
    const origin = await serve({ '/start': [{ redirect: 'x' }], '/back': [{ body: 'back' }] });
    const elsewhere = await serve([{ redirect: `${origin.url}/back` }]);
    origin.setScript({ '/start': [{ redirect: elsewhere.url }], '/back': [{ body: 'back' }] });
    const { fetch } = createClientPipeline({
      baseUrl: origin.url,
      auth: basicAuth({ clientId: 'id', clientSecret: SECRET }),
    });
    expect(await (await fetch(new Request(`${origin.url}/start`))).text()).toBe('back');
    expect(origin.requestsTo('/back')[0]?.headers.authorization).toBeUndefined();
  });

  it('the attempt timeout aborts a redirected request that does not answer', async () => {
    const server = await serve({
      '/start': [{ redirect: '/landing' }],
      '/landing': [{ delayMs: 10_000 }],
    });
    const { fetch } = createClientPipeline({
      baseUrl: server.url,
      timeout: { attemptMs: 200 },
      retry: { attempts: 1 },
    });
    const failed = await fetch(new Request(`${server.url}/start`)).catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'TimeoutError', scope: 'attempt' });
    expect(server.requestsTo('/landing')).toHaveLength(1);
  }, 20_000);

  it('303 after a POST continues as a GET without the body', async () => {
    const server = await serve({
      '/quotes': [{ status: 303, redirect: '/quotes/q-1' }],
      '/quotes/q-1': [{ body: { quoteId: 'q-1' } }],
    });
    const { fetch } = createClientPipeline({ baseUrl: server.url });
    const response = await fetch(
      new Request(`${server.url}/quotes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      }),
    );
    expect(await response.json()).toEqual({ quoteId: 'q-1' });
    const follow = server.requestsTo('/quotes/q-1')[0];
    expect(follow?.method).toBe('GET');
    expect(follow?.body).toBe('');
    expect(follow?.headers['content-type']).toBeUndefined();
  });

  it('refuses a redirect to plain http on a public host', async () => {
    const server = await serve([{ redirect: 'http://example.com/x' }]);
    const { fetch } = createClientPipeline({ baseUrl: server.url });
    const error = await fetch(new Request(`${server.url}/start`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 302, code: 'redirect_refused' });
    expect((error as Error).message).toContain('http://example.com/x, which is not https');
  });

  it('refuses more redirects than maxRedirects', async () => {
    const server = await serve([{ redirect: '/again' }]);
    const { fetch } = createClientPipeline({ baseUrl: server.url, maxRedirects: 2 });
    await expect(fetch(new Request(`${server.url}/start`))).rejects.toMatchObject({
      code: 'redirect_refused',
      message: expect.stringContaining('more than 2 redirects') as unknown,
    });
    expect(server.requests).toHaveLength(3);
  });
});
