import { ConfigurationError } from '@partner-apis/errors';
import { describe, expect, it } from 'vitest';
import { fetchAuthContext } from './auth-context.fixture.js';
import { apiKeyAuth, bearerAuth } from './index.js';

const context = fetchAuthContext(() => 0);

describe('bearerAuth', () => {
  it('sends the token, asking a function for it before every attempt', async () => {
    let n = 0;
    const auth = bearerAuth(() => `tok-${++n}`);
    const headers = new Headers();
    await auth.authorize(headers, context);
    await auth.authorize(headers, context);
    expect(headers.get('authorization')).toBe('Bearer tok-2');
    expect(auth.secretValues?.()).toEqual(['tok-2']);
  });

  it('refuses a token no header can carry, without showing it', async () => {
    expect(() => bearerAuth('')).toThrow('auth.token: must be a non-empty string');
    const auth = bearerAuth(() => 'line\nbreak-secret');
    const refused = await Promise.resolve()
      .then(() => auth.authorize(new Headers(), context))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect(String(refused)).not.toContain('break-secret');
  });
});

describe('apiKeyAuth', () => {
  it('puts each key in its header, cookie or query, and a cookie key once per attempt', () => {
    const auth = apiKeyAuth([
      { in: 'header', name: 'X-Api-Key', value: 'h-1' },
      { in: 'cookie', name: 'session', value: 'c 2' },
      { in: 'query', name: 'api_key', value: 'q-3' },
    ]);
    const headers = new Headers({ cookie: 'theme=dark' });
    void auth.authorize(headers, context);
    void auth.authorize(headers, context);
    expect(headers.get('x-api-key')).toBe('h-1');
    expect(headers.get('cookie')).toBe('theme=dark; session=c%202');
    expect(auth.queryParameters?.()).toEqual([['api_key', 'q-3']]);
    expect(auth.secretHeaderNames).toEqual(['x-api-key']);
    expect(auth.secretValues?.()).toEqual(['h-1', 'c 2', 'q-3']);
  });

  it.each([
    [[], 'auth.keys: must name at least one API key'],
    [
      [{ in: 'body', name: 'k', value: 'v' }],
      'auth.keys[0]: must be { in: header, query or cookie',
    ],
    [[{ in: 'query', name: 'k', value: '' }], 'auth.keys[0].value: must be a non-empty string'],
  ])('refuses %j', (keys, message) => {
    expect(() => apiKeyAuth(keys as never)).toThrow(message);
  });
});
