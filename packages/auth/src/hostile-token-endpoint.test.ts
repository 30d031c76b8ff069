import { ConfigurationError, TokenError } from '@partner-apis/errors';
import {
  SECRET_ENCODINGS,
  encodeSecret,
  hostile,
  startFaultServer,
  startHostileUpstream,
  type FaultServer,
  type HostileUpstream,
} from '@partner-apis/testing';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchAuthContext } from './auth-context.fixture.js';
import {
  basicAuth,
  clientIdHeaders,
  createTokenCache,
  oauth2ClientCredentials,
  parseSecureUrl,
  type AuthContext,
  type KeyFailoverEvent,
  type OAuth2ClientCredentialsOptions,
} from './index.js';

const PRIMARY = 'key-primary-1';
const SECONDARY = 'key-secondary-2';
const SECRET = 'secret-5150';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function scheme(overrides: Partial<OAuth2ClientCredentialsOptions> = {}) {
  return oauth2ClientCredentials({
    tokenUrl: `${server?.url ?? 'https://auth.example.com'}/token`,
    clientId: 'id',
    clientSecret: SECRET,
    scopes: ['Portal.Api', 'Portal.Api.Exposure'],
    subscriptionKeys: { primary: PRIMARY, secondary: SECONDARY },
    tokenCache: createTokenCache(),
    ...overrides,
  });
}

function context(failovers: KeyFailoverEvent[] = []): AuthContext {
  return fetchAuthContext(() => 0, { onKeyFailover: (event) => failovers.push(event) });
}

const keysSent = () => server?.requests.map((r) => r.headers['ocp-apim-subscription-key']);
const invalidClient = { status: 401, body: { error: 'invalid_client' } };
const token = (accessToken: string) => ({
  body: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 },
});

function everyRendering(error: unknown): string {
  const e = error as Error;
  return [e.message, String(e), JSON.stringify(e), inspect(e, { depth: 5 }), e.stack].join('\n');
}

describe('a token endpoint refusing the primary key', () => {
  it('with an RFC 6749 invalid_client body: the secondary is tried and kept', async () => {
    server = await startFaultServer({
      '/token': (request) =>
        request.headers['ocp-apim-subscription-key'] === PRIMARY ? invalidClient : token('tok'),
    });
    const failovers: KeyFailoverEvent[] = [];
    const auth = scheme();
    const headers = new Headers();
    await auth.authorize(headers, context(failovers));
    expect(keysSent()).toEqual([PRIMARY, SECONDARY]);
    expect(headers.get('ocp-apim-subscription-key')).toBe(SECONDARY);
    expect(auth.activeSubscriptionKey).toBe('secondary');
    expect(failovers).toEqual([{ from: 'primary', to: 'secondary', refusedBy: 'token-request' }]);
  });

  it('both keys refused: the secondary is not kept, and the error is typed', async () => {
    server = await startFaultServer({ '/token': [invalidClient] });
    const failovers: KeyFailoverEvent[] = [];
    const auth = scheme();
    const error = await Promise.resolve(auth.authorize(new Headers(), context(failovers))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(keysSent()).toEqual([PRIMARY, SECONDARY]);
    expect(auth.activeSubscriptionKey).toBe('primary');
    expect(failovers).toEqual([]);
  });

  it('without a secondary key: one request, a TokenError', async () => {
    server = await startFaultServer({ '/token': [invalidClient] });
    const auth = scheme({ subscriptionKeys: { primary: PRIMARY } });
    await expect(auth.authorize(new Headers(), context())).rejects.toBeInstanceOf(TokenError);
    expect(keysSent()).toEqual([PRIMARY]);
  });
});

describe('a token endpoint echoing the credentials in every encoding', () => {
  let upstream: HostileUpstream | undefined;
  afterEach(async () => {
    await upstream?.close();
    upstream = undefined;
  });

  it.each([
    [401, 'oauth'],
    [400, 'oauth'],
    [403, 'html'],
  ] as const)('%i with an %s body: a TokenError with none of them', async (status, shape) => {
    upstream = await startHostileUpstream({ '/token': hostile.echoSecrets({ status, shape }) });
    const secret = 'p+s/é "x"=';
    const auth = scheme({ tokenUrl: `${upstream.url}/token`, clientSecret: secret });
    const error = await Promise.resolve(auth.authorize(new Headers(), context())).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokenError);
    const shown = everyRendering(error);
    const basicValue = upstream.requests[0]?.headers.authorization ?? '';
    expect(basicValue).toMatch(/^Basic /);
    for (const sent of [secret, PRIMARY, SECONDARY, basicValue]) {
      for (const encoding of SECRET_ENCODINGS) {
        expect(shown).not.toContain(encodeSecret(sent, encoding));
      }
    }
  });
});

describe('an access_token that no header can carry', () => {
  it.each([
    ['CR/LF', 'Zq9\r\nx-injected: 1'],
    ['NUL', 'Zq9\0en'],
    ['non-Latin-1', 'Zq9€en'],
    ['a control character', 'Zq9\u0007en'],
  ])('%s: a TokenError that never shows the token', async (_, accessToken) => {
    server = await startFaultServer({ '/token': [token(accessToken)] });
    const error = await Promise.resolve(scheme().authorize(new Headers(), context())).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ error: 'invalid_token_response' });
    expect(everyRendering(error)).not.toContain(accessToken);
    expect(everyRendering(error)).not.toContain('Zq9');
  });
});

describe('credentials that go into a header are checked at creation', () => {
  it.each([
    ['auth.subscriptionKeys.primary', { subscriptionKeys: { primary: 'kéy€' } }],
    [
      'auth.subscriptionKeys.secondary',
      { subscriptionKeys: { primary: PRIMARY, secondary: 'k\u0100' } },
    ],
    ['auth.subscriptionKeys.primary', { subscriptionKeys: { primary: 'k\u0001' } }],
  ])('oauth2ClientCredentials refuses a non-Latin-1 %s', (option, overrides) => {
    const build = () => scheme(overrides as Partial<OAuth2ClientCredentialsOptions>);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(`${option}: must hold only Latin-1 characters`);
  });

  it('oauth2ClientCredentials accepts a client ID and secret of any characters (sent in Base64)', () => {
    expect(() => scheme({ clientId: 'clïent€', clientSecret: 'sécret€' })).not.toThrow();
  });

  it.each([
    ['auth.clientId', { clientId: 'app€', clientSecret: 's' }],
    ['auth.clientSecret', { clientId: 'app', clientSecret: 'sécret€' }],
  ])('clientIdHeaders refuses a non-Latin-1 %s, without showing it', (option, credentials) => {
    const build = () => clientIdHeaders(credentials);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(`${option}: must hold only Latin-1 characters`);
    const error = (() => {
      try {
        build();
      } catch (e) {
        return e;
      }
    })();
    expect(everyRendering(error)).not.toContain('€');
  });

  it('basicAuth accepts any characters, since they travel in Base64', () => {
    expect(() => basicAuth({ clientId: 'app€', clientSecret: 'sécret€' })).not.toThrow();
  });
});

describe('URLs with user info', () => {
  it.each([
    'https://user:pa55word@api.example.com/v1',
    'https://user:pa55@word@api.example.com/v1',
    'http://user:pa55word@127.0.0.1:8080/',
  ])('parseSecureUrl refuses %s without showing the password', (url) => {
    const build = () => parseSecureUrl('baseUrl', url);
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow('baseUrl: must not carry user info');
    try {
      build();
    } catch (error) {
      expect(everyRendering(error)).not.toContain('pa55');
    }
  });

  it('oauth2ClientCredentials refuses a tokenUrl with user info', () => {
    expect(() => scheme({ tokenUrl: 'https://id:pa55word@auth.example.com/token' })).toThrow(
      'auth.tokenUrl: must not carry user info',
    );
  });
});

describe('secretValues', () => {
  it('oauth2ClientCredentials knows its secret, Basic value, keys and current token', async () => {
    server = await startFaultServer({ '/token': [token('tok-7')] });
    const auth = scheme();
    expect(auth.secretValues?.()).toEqual(
      expect.arrayContaining([SECRET, PRIMARY, SECONDARY, expect.stringMatching(/^Basic /)]),
    );
    expect(auth.secretValues?.()).not.toContain('tok-7');
    await auth.authorize(new Headers(), context());
    expect(auth.secretValues?.()).toContain('tok-7');
  });

  it('basicAuth and clientIdHeaders know their secret', () => {
    const basic = basicAuth({ clientId: 'app', clientSecret: SECRET });
    expect(basic.secretValues?.()).toEqual([
      SECRET,
      `Basic ${Buffer.from(`app:${SECRET}`).toString('base64')}`,
    ]);
    expect(clientIdHeaders({ clientId: 'app', clientSecret: SECRET }).secretValues?.()).toEqual([
      SECRET,
    ]);
  });
});
