import { ApiError, ConfigurationError } from '@partner-apis/errors';
import { Agent as HttpAgent } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createClientPipeline } from '../index.js';
import { SEND_KEY, directSendOf, type SendKit } from './direct-send.js';
import { ResponseTooLarge, TOO_LARGE_HEAD_BYTES, type Answer, type Send } from './exchange.js';

const baseUrl = 'http://127.0.0.1:9/v1';

/** A `fetch` that must never be called, offering `send` under `SEND_KEY`. */
function offering(send: (kit: SendKit) => Send) {
  const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.reject(new Error('fetch called')));
  const offer = vi.fn(send);
  Object.defineProperty(fetch, SEND_KEY, { value: offer });
  return { fetch, offer };
}

function answer(status: number, body: string): Answer {
  return {
    status,
    statusText: '',
    headers: new Headers({ 'content-type': 'application/json' }),
    bytes: new TextEncoder().encode(body),
  };
}

describe('a fetch offering a sender under SEND_KEY', () => {
  it('is sent through that sender, made once per client, and never called', async () => {
    const send = vi.fn<Send>(async () => answer(200, '{"ok":true}'));
    const { fetch, offer } = offering(() => send);
    const pipeline = createClientPipeline({ baseUrl, fetch });
    for (let i = 0; i < 2; i++) {
      const response = await pipeline.fetch(new Request(`${baseUrl}/things?q=1`));
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(offer).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[0]?.[0]).toMatchObject({ url: `${baseUrl}/things?q=1`, method: 'GET' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("hands the sender a kit whose too-large error is the pipeline's own", async () => {
    let kit: SendKit | undefined;
    directSendOf(
      offering((given) => {
        kit = given;
        return async () => answer(200, '');
      }).fetch,
    );
    const chunks = [new Uint8Array(3000).fill(0x61), new Uint8Array(3000).fill(0x62)];
    const made = kit?.tooLarge(413, 'Too Large', new Headers(), 5000, chunks);
    expect(made).toBeInstanceOf(ResponseTooLarge);
    expect(made).toMatchObject({ status: 413, statusText: 'Too Large' });
    expect((made as ResponseTooLarge).head.byteLength).toBe(TOO_LARGE_HEAD_BYTES);
  });

  it("turns the kit's too-large error into response_too_large", async () => {
    const { fetch } = offering((kit) => async (exchange) => {
      throw kit.tooLarge(500, 'Broken', new Headers(), exchange.maxResponseBytes, []);
    });
    const pipeline = createClientPipeline({ baseUrl, fetch, maxResponseBytes: 5000 });
    const error = await pipeline.fetch(new Request(`${baseUrl}/big`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'response_too_large' });
  });

  it('still cannot go with an agent', () => {
    const { fetch } = offering(() => async () => answer(200, ''));
    expect(() => createClientPipeline({ baseUrl, fetch, agent: new HttpAgent() })).toThrow(
      ConfigurationError,
    );
  });
});

describe('directSendOf', () => {
  it.each([
    ['a plain fetch', async () => new Response('{}')],
    ['an offer that is not a function', Object.assign(() => undefined, { [SEND_KEY]: 'send' })],
    ['undefined', undefined],
    ['null', null],
  ])('finds no sender on %s', (_name, fetch) => {
    expect(directSendOf(fetch)).toBeUndefined();
  });

  it("uses the registered symbol, so a transport needs no import of core's", () => {
    expect(SEND_KEY).toBe(Symbol.for('partner-apis.send'));
  });
});
