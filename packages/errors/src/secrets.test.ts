import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  TimeoutError,
  TokenError,
  apiErrorFromResponse,
  type PartnerApisError,
} from './index.js';

const SECRET = 'sEcReT-9f3a';
const TOKEN = 'eyJ.tok-71c2';
const KEY = 'subkey-5d0e';
const secrets = [SECRET, TOKEN, KEY, `Basic ${Buffer.from(`id:${SECRET}`).toString('base64')}`];

// The URL carries a secret in user info, query and fragment; none of it may survive.
const request = {
  method: 'POST',
  url: `https://id:${SECRET}@api.test/v1/quotes?client_secret=${SECRET}&key=${KEY}#${TOKEN}`,
  requestId: 'r-1',
};

function everyRendering(error: PartnerApisError): string {
  return [
    error.message,
    String(error),
    error.toString(),
    JSON.stringify(error),
    inspect(error),
    inspect(error, { depth: 10, showHidden: true }),
    error.stack ?? '',
  ].join('\n');
}

describe('no credential in any rendering of an error', () => {
  const cases: Array<[string, PartnerApisError]> = [
    [
      'ApiError with the secrets echoed in body, status text and headers',
      apiErrorFromResponse({
        response: {
          status: 401,
          statusText: `Denied ${KEY}`,
          headers: new Headers({
            'www-authenticate': `Bearer error="${TOKEN}"`,
            'set-cookie': `s=${SECRET}`,
          }),
        },
        text: JSON.stringify({
          code: 'authentication_error',
          message: `Token ${TOKEN} with key ${KEY} refused`,
          correlationId: 'c-1',
          causes: [{ message: `secret ${SECRET}`, field: '/clientSecret' }],
        }),
        request,
        requestBody: { clientSecret: SECRET },
        secrets,
      }),
    ],
    [
      'ApiError with an HTML body echoing the Authorization header',
      apiErrorFromResponse({
        response: { status: 502, statusText: 'Bad Gateway', headers: new Headers() },
        text: `<pre>Authorization: ${secrets[3]}\nOcp-Apim-Subscription-Key: ${KEY}</pre>`,
        request,
        secrets,
      }),
    ],
    [
      'ConnectionError',
      new ConnectionError({
        request,
        systemCode: 'ECONNRESET',
        requestMayHaveBeenSent: true,
        cause: new Error('socket hang up'),
      }),
    ],
    ['TimeoutError', new TimeoutError({ request, timeoutMs: 50, scope: 'attempt' })],
    [
      'TokenError with the secret echoed in the description',
      new TokenError({
        status: 401,
        error: 'invalid_client',
        errorDescription: `client secret ${SECRET} is wrong`,
        tokenUrl: `https://id:${SECRET}@auth.test/login/connect/token?key=${KEY}`,
        secrets,
      }),
    ],
  ];

  it.each(cases)('%s', (_, error) => {
    const text = everyRendering(error);
    for (const secret of [SECRET, TOKEN, KEY, Buffer.from(`id:${SECRET}`).toString('base64')]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain(error.name);
  });

  it('still shows the safe fields in inspect and toJSON', () => {
    const [, error] = cases[0] as [string, PartnerApisError];
    expect(inspect(error)).toContain("correlationId: 'c-1'");
    expect(error.toJSON()).toMatchObject({
      name: 'AuthenticationError',
      status: 401,
      url: 'https://api.test/v1/quotes?client_secret=[redacted]&key=[redacted]#[redacted]',
      causes: [{ message: 'secret [redacted]', field: '/clientSecret', pointer: ['clientSecret'] }],
    });
  });
});
