import { ConnectionError, TimeoutError } from '@partner-apis/errors';
import {
  hostile,
  startHostileUpstream,
  type HostileUpstream,
  type Hostility,
} from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientPipeline } from '../index.js';

// Runs over the default transport: node:http here, and the undici transport in its
// conformance run (packages/transport-undici/vitest.pipeline.config.ts).

let upstream: HostileUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const unparsable: Array<[string, Hostility]> = [
  ['a 1xx status line followed by a body (199 Odd)', hostile.statusLine(199)],
  ['a status code that is not a number (abc Broken)', hostile.rawHead('HTTP/1.1 abc Broken')],
  ['a first line that is not a status line (GARBAGE)', hostile.rawHead('GARBAGE')],
  ['a control character in a header value', hostile.rawHead('HTTP/1.1 200 OK', ['x-odd: a\x01b'])],
];

async function failureOf(
  method: string,
  route: Hostility,
  attempts = 1,
  attemptMs?: number,
): Promise<unknown> {
  upstream = await startHostileUpstream({ '/x': route });
  const { fetch } = createClientPipeline({
    baseUrl: upstream.url,
    retry: { attempts },
    timeout: { attemptMs },
  });
  const body = method === 'GET' ? undefined : '{"a":1}';
  return fetch(new Request(`${upstream.url}/x`, { method, body })).then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
}

describe('an answer that is not valid HTTP', () => {
  it.each(unparsable)(
    '%s: a GET fails with a ConnectionError that took no effect',
    async (_, route) => {
      const error = await failureOf('GET', route);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ requestMayHaveBeenSent: true, mayHaveTakenEffect: false });
      expect((error as Error).message).toContain('the response is not valid HTTP');
    },
  );

  it.each(unparsable)(
    '%s: a POST may have taken effect and is not sent again',
    async (_, route) => {
      const error = await failureOf('POST', route, 3);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ requestMayHaveBeenSent: true, mayHaveTakenEffect: true });
      expect((error as Error).message).toMatch(/not valid HTTP.*may have taken effect$/);
      expect(upstream?.requests).toHaveLength(1);
    },
  );
});

describe('a chunked body cut off', () => {
  it.each([200, 500])(
    'after a %i head: a typed error, with the effect of a write',
    async (status) => {
      const route = hostile.truncatedChunked({ status });
      const read = await failureOf('GET', route);
      expect(read).toBeInstanceOf(ConnectionError);
      expect(read).toMatchObject({ mayHaveTakenEffect: false });
      expect((read as Error).message).toContain('the response body was cut off');
      await upstream?.close();
      const write = await failureOf('PUT', route);
      expect(write).toBeInstanceOf(ConnectionError);
      expect(write).toMatchObject({ requestMayHaveBeenSent: true, mayHaveTakenEffect: true });
    },
  );
});

describe('a body that stalls after its head', () => {
  // Headers and a first chunk, then nothing until the client leaves.
  const stalls: Hostility = (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[');
  };

  it.each([
    ['GET', false],
    ['DELETE', true],
  ])('a %s: a TimeoutError, mayHaveTakenEffect %s', async (method, effect) => {
    const error = await failureOf(method, stalls, 1, 200);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', mayHaveTakenEffect: effect });
  });
});

describe('a TLS handshake with a server that speaks plain HTTP', () => {
  it('fails with a ConnectionError', async () => {
    upstream = await startHostileUpstream({ '/x': hostile.json({}) });
    const url = upstream.url.replace('http:', 'https:');
    const { fetch } = createClientPipeline({ baseUrl: url, retry: { attempts: 1 } });
    const error = await fetch(new Request(`${url}/x`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });
});
