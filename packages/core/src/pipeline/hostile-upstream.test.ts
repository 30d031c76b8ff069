import {
  basicAuth,
  clientIdHeaders,
  oauth2ClientCredentials,
  type AuthScheme,
} from '@partner-apis/auth';
import { AuthenticationError, type ApiError } from '@partner-apis/errors';
import {
  SECRET_ENCODINGS,
  encodeSecret,
  hostile,
  startHostileUpstream,
  type HostileUpstream,
} from '@partner-apis/testing';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientPipeline } from '../index.js';

// Characters every encoding treats differently.
const SECRET = 'p+s/é "x"=';
const KEY = 'key/+primary';

let upstream: HostileUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

function rendered(error: unknown): string {
  const e = error as ApiError;
  return [e.message, String(e), JSON.stringify(e), inspect(e, { depth: 10 }), e.stack].join('\n');
}

const schemes: Array<[string, (url: string) => AuthScheme]> = [
  ['basicAuth (liability)', () => basicAuth({ clientId: 'liability-app', clientSecret: SECRET })],
  [
    'clientIdHeaders (approvals)',
    () => clientIdHeaders({ clientId: 'approvals-app', clientSecret: SECRET.replace('é', 'e') }),
  ],
  [
    'oauth2ClientCredentials (exposure)',
    (url) =>
      oauth2ClientCredentials({
        tokenUrl: `${url}/token`,
        clientId: 'exposure-app',
        clientSecret: SECRET,
        scopes: ['Portal.Api', 'Portal.Api.Exposure'],
        subscriptionKeys: { primary: KEY },
      }),
  ],
];

describe('a data endpoint echoing every credential in every encoding', () => {
  it.each(
    schemes.flatMap(([name, make]) =>
      (['common', 'html'] as const).map((shape) => [name, shape, make] as const),
    ),
  )('%s, %s body: the error holds none of them', async (_, shape, make) => {
    upstream = await startHostileUpstream({
      '/token': hostile.json({ access_token: 'tok.en/+1', token_type: 'Bearer', expires_in: 3600 }),
      '/data': hostile.echoSecrets({ status: 401, shape }),
    });
    const auth = make(upstream.url);
    const client = createClientPipeline({ baseUrl: upstream.url, auth, retry: { attempts: 1 } });
    const error = await client.fetch(new Request(`${upstream.url}/data`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const shown = rendered(error);
    const sent = upstream.requests.filter((r) => r.path === '/data');
    const values = [SECRET, SECRET.replace('é', 'e'), KEY, 'tok.en/+1'];
    for (const request of sent) {
      for (const name of ['authorization', 'client_secret', 'ocp-apim-subscription-key']) {
        const value = request.headers[name];
        if (typeof value === 'string') values.push(value);
      }
    }
    for (const value of values) {
      for (const encoding of SECRET_ENCODINGS) {
        expect(shown).not.toContain(encodeSecret(value, encoding));
      }
    }
  });
});

describe('a data endpoint echoing a secret this request did not carry', () => {
  it('the client secret of the token request is scrubbed, through AuthScheme.secretValues', async () => {
    const echoed = SECRET_ENCODINGS.map((encoding) => encodeSecret(SECRET, encoding));
    upstream = await startHostileUpstream({
      '/token': hostile.json({ access_token: 'tok-2', token_type: 'Bearer', expires_in: 3600 }),
      '/data': hostile.json(
        { code: 'data_validation', message: `bad ${echoed.join(' ')}`, correlationId: 'c' },
        400,
      ),
    });
    const auth = schemes[2]![1](upstream.url);
    const client = createClientPipeline({ baseUrl: upstream.url, auth, retry: { attempts: 1 } });
    const error = await client.fetch(new Request(`${upstream.url}/data`)).catch((e: unknown) => e);
    const shown = rendered(error);
    for (const text of echoed) expect(shown).not.toContain(text);
    expect((error as ApiError).message).toMatch(/^bad \[redacted\]/);
  });
});
