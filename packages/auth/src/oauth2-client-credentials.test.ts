import { ConfigurationError } from '@partner-apis/errors';
import { createVirtualTime, startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchAuthContext } from './auth-context.fixture.js';
import {
  createTokenCache,
  oauth2ClientCredentials,
  parseSecureUrl,
  isLoopbackHost,
  type AuthContext,
  type OAuth2ClientCredentialsOptions,
} from './index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const options = (overrides: Partial<OAuth2ClientCredentialsOptions> = {}) => ({
  tokenUrl: 'https://auth.example.com/login/connect/token',
  clientId: 'id',
  clientSecret: 'secret-5150',
  scopes: ['Portal.Api', 'Portal.Api.Exposure'] as OAuth2ClientCredentialsOptions['scopes'],
  subscriptionKeys: { primary: 'key-1' },
  ...overrides,
});

/** The context a pipeline would hand in, with plain fetch as the token transport. */
function context(): AuthContext {
  return fetchAuthContext(createVirtualTime().now);
}

describe('oauth2ClientCredentials', () => {
  it.each([
    [
      { tokenUrl: 'http://auth.example.com/token' },
      'auth.tokenUrl: must use https (got http://auth.example.com/token)',
    ],
    [{ tokenUrl: 'token' }, 'auth.tokenUrl: must be an absolute https URL'],
    [{ scopes: [] }, 'auth.scopes: must name at least one scope'],
    [{ scopes: ['Portal.Api', ''] }, 'auth.scopes: must be non-empty strings without " "'],
    [{ scopeSeparator: '' }, 'auth.scopeSeparator: must be a non-empty string'],
    [
      { subscriptionKeys: { primary: '' } },
      'auth.subscriptionKeys.primary: must be a non-empty string',
    ],
    [{ subscriptionKeys: undefined }, 'auth.subscriptionKeys.primary: must be a non-empty string'],
    [{ subscriptionKeys: { primary: 'k', secondary: '' } }, 'auth.subscriptionKeys.secondary'],
    [
      { subscriptionKey: { in: 'header', name: 'bad header' } },
      'auth.subscriptionKey: must be { in: header, query or cookie, name }',
    ],
    [
      { tokenRequestKey: { in: 'body', name: 'key' } },
      'auth.tokenRequestKey: must be { in: header, query or cookie, name }',
    ],
    [{ defaultLifetimeSeconds: -1 }, 'auth.defaultLifetimeSeconds: must be a non-negative number'],
    [
      { refreshMarginSeconds: Number.NaN },
      'auth.refreshMarginSeconds: must be a non-negative number',
    ],
  ])('refuses %j', (overrides, message) => {
    const build = () => oauth2ClientCredentials(options(overrides as never));
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('uses the configured scope separator and subscription key header', async () => {
    server = await startFaultServer({
      '/token': [{ body: { access_token: 'tok', token_type: 'Bearer', expires_in: 60 } }],
    });
    const scheme = oauth2ClientCredentials(
      options({
        tokenUrl: `${server.url}/token`,
        scopeSeparator: ',',
        subscriptionKey: { in: 'header', name: 'X-Api-Key' },
        tokenRequestKey: { in: 'header', name: 'X-Api-Key' },
        tokenCache: createTokenCache(),
      }),
    );
    const headers = new Headers();
    await scheme.authorize(headers, context());
    expect(server.requests[0]?.body).toBe(
      'grant_type=client_credentials&scope=Portal.Api%2CPortal.Api.Exposure',
    );
    expect(server.requests[0]?.headers['x-api-key']).toBe('key-1');
    expect(Object.fromEntries(headers)).toEqual({
      authorization: 'Bearer tok',
      'x-api-key': 'key-1',
    });
    expect(scheme.secretHeaderNames).toEqual(['authorization', 'x-api-key']);
  });

  it.each([
    ['query', { in: 'query', name: 'subscription-key' }],
    ['cookie', { in: 'cookie', name: 'key' }],
  ] as const)('carries the key in the %s of data and token requests alike', async (place, key) => {
    server = await startFaultServer({
      '/token': [{ body: { access_token: 'tok', token_type: 'Bearer', expires_in: 60 } }],
    });
    const scheme = oauth2ClientCredentials(
      options({
        tokenUrl: `${server.url}/token`,
        subscriptionKey: key,
        tokenRequestKey: key,
        tokenCache: createTokenCache(),
      }),
    );
    const headers = new Headers({ cookie: 'session=1' });
    await scheme.authorize(headers, context());
    await scheme.authorize(headers, context());
    const token = server.requests[0];
    if (place === 'query') {
      expect(token?.url).toBe('/token?subscription-key=key-1');
      expect(scheme.queryParameters?.()).toEqual([['subscription-key', 'key-1']]);
      expect(headers.get('cookie')).toBe('session=1');
    } else {
      expect(token?.headers.cookie).toBe('key=key-1');
      expect(headers.get('cookie')).toBe('session=1; key=key-1');
      expect(scheme.queryParameters?.()).toEqual([]);
    }
    expect(token?.headers['ocp-apim-subscription-key']).toBeUndefined();
    expect(scheme.secretHeaderNames).toEqual(['authorization']);
  });

  it('keys the token cache by the digest of the secret, never the secret itself', async () => {
    const token = { body: { access_token: 'tok', token_type: 'Bearer', expires_in: 60 } };
    server = await startFaultServer({ '/token': [token, token] });
    const cache = createTokenCache();
    const keys: string[] = [];
    const get = cache.get.bind(cache);
    cache.get = (key) => {
      keys.push(key);
      return get(key);
    };
    const scheme = (clientSecret: string) =>
      oauth2ClientCredentials(
        options({ tokenUrl: `${server?.url}/token`, clientSecret, tokenCache: cache }),
      );
    await scheme('secret-5150').authorize(new Headers(), context());
    await scheme('secret-5150').authorize(new Headers(), context());
    expect(server.requests).toHaveLength(1);
    await scheme('another-secret').authorize(new Headers(), context());
    expect(server.requests).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys) expect(key).not.toMatch(/secret-5150|another-secret/);
  });

  it('never shows a credential when the scheme is logged', () => {
    const scheme = oauth2ClientCredentials(options({ subscriptionKeys: { primary: 'key-9999' } }));
    expect(JSON.stringify(scheme)).not.toMatch(/secret-5150|key-9999/);
  });
});

describe('parseSecureUrl', () => {
  it.each(['localhost', '127.0.0.1', '127.255.0.9', '[::1]'])('treats %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(parseSecureUrl('baseUrl', `http://${host}:8080/v1`).protocol).toBe('http:');
  });

  it.each(['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]'])(
    'refuses plain http to %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
      expect(() => parseSecureUrl('baseUrl', `http://${host}/v1`)).toThrow(
        `baseUrl: must use https (got http://${host}/v1)`,
      );
    },
  );
});
