import { ConnectionError } from '@partner-apis/errors';
import { warningsDuring } from '@partner-apis/testing';
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallScope } from './call-scope.js';
import { createClientPipeline } from '../index.js';

/** One GET as a resource method hands it to the pipeline. */
const get = (url: string, signal: AbortSignal) => ({
  method: 'GET',
  url,
  headers: new Headers(),
  body: undefined,
  signal,
});

const BASE = 'https://api.example.test';
const CALLS = 10_000;
const IN_FLIGHT = 100;

beforeEach(() => {
  // Fake timers count every timer a call leaves behind; no test here waits on one.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Answers at once: every third request fails as a network failure, the others answer 200.
 * `seen` records how many listeners `signal` has while each request is being sent.
 */
function answering(signal: AbortSignal, seen: number[]): typeof globalThis.fetch {
  let n = 0;
  return async () => {
    n += 1;
    seen.push(getEventListeners(signal, 'abort').length);
    if (n % 3 === 0) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
  };
}

describe('calls on one long-lived signal', () => {
  // Ten thousand calls take seconds on a machine busy with other work: a generous bound.
  it(
    `${CALLS} calls, ${IN_FLIGHT} at a time, leave no listener on it and no timer`,
    { timeout: 120_000 },
    async () => {
      const controller = new AbortController();
      const { signal } = controller;
      const seen: number[] = [];
      const { execute } = createClientPipeline({
        baseUrl: BASE,
        fetch: answering(signal, seen),
        retry: { attempts: 1 },
      });
      let failures = 0;
      const warnings = await warningsDuring(async () => {
        for (let sent = 0; sent < CALLS; sent += IN_FLIGHT) {
          const batch = Array.from({ length: IN_FLIGHT }, (_, i) =>
            execute(get(`${BASE}/items/${sent + i}`, signal))
              .then((reply) => reply.answer.bytes)
              .catch((error: unknown) => {
                expect(error).toBeInstanceOf(ConnectionError);
                failures += 1;
              }),
          );
          await Promise.all(batch);
        }
      });
      expect(failures).toBe(Math.floor(CALLS / 3));
      expect(seen).toHaveLength(CALLS);
      expect(new Set(seen)).toEqual(new Set([1]));
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      expect(vi.getTimerCount()).toBe(0);
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    },
  );

  it('an abort ends the calls in flight, and leaves no listener or timer behind', async () => {
    const { execute } = createClientPipeline({
      baseUrl: BASE,
      // Never answers: only the abort ends these calls.
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
        }),
    });
    const controller = new AbortController();
    const pending = Array.from({ length: IN_FLIGHT }, (_, i) =>
      execute(get(`${BASE}/items/${i}`, controller.signal)).catch((error: unknown) => error),
    );
    await vi.waitFor(() => expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1));
    controller.abort(new Error('user cancelled'));
    for (const outcome of await Promise.all(pending)) {
      expect(outcome).toMatchObject({ message: 'user cancelled' });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('CallScope', () => {
  it('of a signal aborted already: ended at once, with no deadline timer to clear', () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    const scope = new CallScope(controller.signal, 60_000, 0, { method: 'GET', url: BASE });
    expect(scope.ended).toBe(true);
    expect(scope.reason).toMatchObject({ message: 'before' });
    expect(vi.getTimerCount()).toBe(0);
    scope.dispose();
  });

  it('follows a signal again after its last call ended', () => {
    const controller = new AbortController();
    const request = { method: 'GET', url: BASE };
    new CallScope(controller.signal, 60_000, 0, request).dispose();
    const second = new CallScope(controller.signal, 60_000, 0, request);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('later'));
    expect(second.reason).toMatchObject({ message: 'later' });
    second.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
