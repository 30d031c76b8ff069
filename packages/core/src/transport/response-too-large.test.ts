import { InternalServerError, apiErrorFromResponse } from '@partner-apis/errors';
import { startHostileUpstream, type HostileUpstream, type Hostility } from '@partner-apis/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ResponseTooLarge,
  TOO_LARGE_HEAD_BYTES,
  headOf,
  type Exchange,
  type Send,
} from './exchange.js';
import { createFetchSend } from './fetch-send.js';
import { createNodeHttpSend } from './node-http-send.js';

let upstream: HostileUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const ERROR_BODY = JSON.stringify({
  code: 'internal_server_error',
  message: 'Something broke.',
  correlationId: 'c-1',
});

/** A 500 whose error body is followed by `padding` spaces, sent chunked or with its length. */
function paddedError(padding: number, announceLength: boolean): Hostility {
  return (_request, response) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (announceLength) headers['content-length'] = ERROR_BODY.length + padding;
    response.writeHead(500, 'Internal Server Error', headers);
    response.write(ERROR_BODY);
    response.end(' '.repeat(padding));
  };
}

function exchange(url: string, maxResponseBytes: number): Exchange {
  const signal = new AbortController().signal;
  return {
    url,
    method: 'GET',
    headers: new Headers(),
    body: undefined,
    signal,
    onAbort: () => () => undefined,
    maxResponseBytes,
    headersReceived: false,
    onWritten: undefined,
  };
}

const senders: Array<[string, () => Send]> = [
  ['node:http', () => createNodeHttpSend(undefined)],
  ['fetch', () => createFetchSend((input, init) => globalThis.fetch(input, init))],
];

describe.each(senders)('a body over maxResponseBytes, sent by %s', (_, makeSend) => {
  it('keeps the status, its text, and the start of the body read', async () => {
    upstream = await startHostileUpstream({ '/x': paddedError(200_000, false) });
    const error = await makeSend()(exchange(`${upstream.url}/x`, 10_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    const tooLarge = error as ResponseTooLarge;
    expect(tooLarge).toMatchObject({ status: 500, statusText: 'Internal Server Error' });
    expect(tooLarge.head.byteLength).toBe(TOO_LARGE_HEAD_BYTES);
    const text = new TextDecoder().decode(tooLarge.head);
    expect(text.startsWith(ERROR_BODY)).toBe(true);

    // What the pipeline builds from it: the status class, with the error body's own words.
    const built = apiErrorFromResponse({ response: tooLarge, text, truncated: true });
    expect(built).toBeInstanceOf(InternalServerError);
    expect(built.code).toBe('internal_server_error');
    expect(built.message).toMatch(
      /^Something broke\. \(HTTP 500; the body was larger .* cut there\)$/,
    );
  });

  it('reads nothing of a body whose announced length is over the limit', async () => {
    upstream = await startHostileUpstream({ '/x': paddedError(200_000, true) });
    const error = await makeSend()(exchange(`${upstream.url}/x`, 10_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(error).toMatchObject({ status: 500, statusText: 'Internal Server Error' });
    expect((error as ResponseTooLarge).head.byteLength).toBe(0);
  });
});

describe('headOf', () => {
  it('copies the first bytes of the chunks, at most TOO_LARGE_HEAD_BYTES', () => {
    const a = new Uint8Array(3000).fill(1);
    const b = new Uint8Array(3000).fill(2);
    const head = headOf([a, b]);
    expect(head.byteLength).toBe(TOO_LARGE_HEAD_BYTES);
    expect(head[2999]).toBe(1);
    expect(head[3000]).toBe(2);
    expect(headOf([new Uint8Array([7, 8])])).toEqual(new Uint8Array([7, 8]));
    expect(headOf([]).byteLength).toBe(0);
  });
});
