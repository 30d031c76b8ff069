import type { AuthAnswer, AuthScheme } from '@partner-apis/auth';
import { startFaultServer, type FaultServer } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientPipeline } from '../index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const refused = {
  status: 401,
  headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
  body: { code: 'unauthorized', message: 'The token expired.' },
};

/** A custom scheme that records what it is handed, and asks for one retry on a 401. */
function recordingScheme() {
  const seen: AuthAnswer[] = [];
  const scheme: AuthScheme = {
    secretHeaderNames: ['x-api-key'],
    authorize(headers) {
      headers.set('x-api-key', seen.length === 0 ? 'old-key' : 'new-key');
    },
    async onUnauthorized(answer) {
      seen.push(answer);
      return 'retry';
    },
  };
  return { scheme, seen };
}

describe('credentials step', () => {
  it('hands onUnauthorized the 401 as it was read: status, real Headers and text', async () => {
    server = await startFaultServer({ '/items': [refused, { body: { items: [] } }] });
    const { scheme, seen } = recordingScheme();
    const pipeline = createClientPipeline({ baseUrl: server.url, auth: scheme });

    const response = await pipeline.fetch(new Request(`${server.url}/items`));

    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual(['old-key', 'new-key']);
    expect(seen).toHaveLength(1);
    const [answer] = seen;
    expect(answer).not.toBeInstanceOf(Response);
    expect(answer?.status).toBe(401);
    expect(answer?.statusText).toBe('Unauthorized');
    expect(answer?.headers).toBeInstanceOf(Headers);
    expect(answer?.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(JSON.parse(answer?.text ?? '')).toEqual(refused.body);
  });

  it("answers context.send with real Headers, as a scheme's token request reads them", async () => {
    server = await startFaultServer({
      '/token': [{ headers: { 'x-token-lifetime': '60' }, body: { access_token: 't' } }],
      '/items': [{ body: { items: [] } }],
    });
    const tokenUrl = `${server.url}/token`;
    let tokenAnswer: AuthAnswer | undefined;
    const scheme: AuthScheme = {
      secretHeaderNames: ['authorization'],
      async authorize(headers, context) {
        tokenAnswer ??= await context.send({ method: 'POST', url: tokenUrl, headers: {} });
        headers.set('authorization', `Bearer ${JSON.parse(tokenAnswer.text).access_token}`);
      },
    };
    const pipeline = createClientPipeline({ baseUrl: server.url, auth: scheme });

    await pipeline.fetch(new Request(`${server.url}/items`));

    expect(server.requestsTo('/items')[0]?.headers.authorization).toBe('Bearer t');
    expect(tokenAnswer?.headers).toBeInstanceOf(Headers);
    expect(tokenAnswer?.headers.get('x-token-lifetime')).toBe('60');
  });
});
