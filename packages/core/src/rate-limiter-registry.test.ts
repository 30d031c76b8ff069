import { clientIdHeaders } from '@partner-apis/auth';
import { createRollingWindowCounter, createVirtualTime } from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { createClientPipeline } from './index.js';
import { processRateLimiter } from './rate-limiter-registry.js';
import { createRateLimiter } from './rate-limiter.js';

const SILVER = 10;

/**
 * Clients on one virtual time, all answered by one strict gateway: a client ID gets a 429 for
 * any call that would make more than the silver tier arrive within a rolling second.
 */
function strictGateway() {
  const time = createVirtualTime();
  const counter = createRollingWindowCounter(1000);
  let tooManyRequests = 0;
  const client = (clientId: string) =>
    createClientPipeline({
      baseUrl: 'http://127.0.0.1:9',
      auth: clientIdHeaders({ clientId, clientSecret: 'not-a-real-secret' }),
      rateLimit: 'silver',
      retry: { attempts: 1 },
      clock: time.now,
      sleep: time.sleep,
      // Answers at once, so every request arrives at the virtual time it was sent.
      fetch: (input, init) => {
        const id = new Request(input, init).headers.get('client_id') ?? '';
        if (counter.admit(id, time.now(), SILVER)) {
          return Promise.resolve(Response.json({ ok: true }));
        }
        tooManyRequests += 1;
        return Promise.resolve(
          Response.json(
            { code: 'too_many_requests' },
            { status: 429, headers: { 'retry-after': '1' } },
          ),
        );
      },
    }).fetch;
  return { client, counter, tooManyRequests: () => tooManyRequests };
}

const call = (fetch: ReturnType<ReturnType<typeof strictGateway>['client']>) =>
  fetch(new Request('http://127.0.0.1:9/data')).then((response) => response.json());

describe('one rate limiter per client application per process', () => {
  it('keeps two clients of one client ID within the tier together', async () => {
    const gateway = strictGateway();
    const first = gateway.client('app-1');
    const second = gateway.client('app-1');
    await call(first);
    const results = await Promise.allSettled([
      ...Array.from({ length: 25 }, () => call(second)),
      ...Array.from({ length: 5 }, () => call(first)),
    ]);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(gateway.tooManyRequests()).toBe(0);
    expect(gateway.counter.arrivals('app-1')).toHaveLength(31);
    expect(gateway.counter.maxInAnyWindow('app-1')).toBeLessThanOrEqual(SILVER);
  });

  it('paces two client IDs apart, each at its own tier', async () => {
    const gateway = strictGateway();
    const one = gateway.client('app-1');
    const two = gateway.client('app-2');
    await Promise.all(Array.from({ length: SILVER }, () => [call(one), call(two)]).flat());
    // Both tiers full in the same virtual instant: neither waited for the other.
    expect(gateway.counter.maxInAnyWindow('app-1')).toBe(SILVER);
    expect(gateway.counter.maxInAnyWindow('app-2')).toBe(SILVER);
    expect(gateway.tooManyRequests()).toBe(0);
  });

  it('pauses every holder of the limiter for a 429, and no other client ID', async () => {
    const time = createVirtualTime();
    const scope = (clientId: string) => ({
      baseUrl: 'http://127.0.0.1:9',
      clientId,
      rate: { requestsPerSecond: 100 },
      localLimiter: (rate: { requestsPerSecond: number }) =>
        createRateLimiter(rate, time.now, time.sleep),
      sleep: time.sleep,
      clock: time.now,
    });
    const first = processRateLimiter(scope('app-3'));
    const second = processRateLimiter(scope('app-3'));
    const other = processRateLimiter(scope('app-4'));
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    const signal = new AbortController().signal;
    const start = time.now();
    first.pause?.(1000);
    (await second.take(signal)).sent();
    expect(time.now() - start).toBe(1000);
    (await other.take(signal)).sent();
    expect(time.now() - start).toBe(1000);
  });

  it('gives a client without a client ID a limiter of its own', () => {
    const time = createVirtualTime();
    const scope = {
      baseUrl: 'http://127.0.0.1:9',
      clientId: undefined,
      rate: { requestsPerSecond: 10 },
      localLimiter: (rate: { requestsPerSecond: number }) =>
        createRateLimiter(rate, time.now, time.sleep),
      sleep: time.sleep,
      clock: time.now,
    };
    expect(processRateLimiter(scope)).not.toBe(processRateLimiter(scope));
  });

  it("a 429's Retry-After pauses the other clients of the client ID too", async () => {
    const time = createVirtualTime();
    const sent: number[] = [];
    let refuse = true;
    const client = () =>
      createClientPipeline({
        baseUrl: 'http://127.0.0.1:9',
        auth: clientIdHeaders({ clientId: 'app-429', clientSecret: 'not-a-real-secret' }),
        rateLimit: 'gold',
        retry: { attempts: 1 },
        clock: time.now,
        sleep: time.sleep,
        fetch: () => {
          sent.push(time.now());
          if (refuse) {
            refuse = false;
            return Promise.resolve(
              Response.json(
                { code: 'too_many_requests' },
                { status: 429, headers: { 'retry-after': '3' } },
              ),
            );
          }
          return Promise.resolve(Response.json({ ok: true }));
        },
      }).fetch;
    const first = client();
    const second = client();
    const start = time.now();
    await expect(call(first)).rejects.toMatchObject({ status: 429 });
    await call(second);
    expect(sent.map((at) => at - start)).toEqual([0, 3000]);
  });
});
