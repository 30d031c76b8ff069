import { clientIdHeaders } from '@partner-apis/auth';
import {
  createRollingWindowCounter,
  createVirtualTime,
  warningsDuring,
} from '@partner-apis/testing';
import { describe, expect, it } from 'vitest';
import { createClientPipeline, type RateLimitTier } from '../index.js';
import { createRateLimiter } from './limiter.js';
import { pipelineRateLimiter } from './registry.js';

const SILVER = 10;
const ignore = () => undefined;

/**
 * Clients on one virtual time, all answered by one strict gateway: a client ID gets a 429 for
 * any call that would make more than the silver tier arrive within a rolling second.
 */
function strictGateway(limit = SILVER) {
  const time = createVirtualTime();
  const counter = createRollingWindowCounter(1000);
  let tooManyRequests = 0;
  const client = (
    clientId: string,
    rateLimit: RateLimitTier = 'silver',
    logger?: { warn(message: string): void },
  ) =>
    createClientPipeline({
      baseUrl: 'http://127.0.0.1:9',
      logger,
      auth: clientIdHeaders({ clientId, clientSecret: 'not-a-real-secret' }),
      rateLimit,
      retry: { attempts: 1 },
      clock: time.now,
      sleep: time.sleep,
      // Answers at once, so every request arrives at the virtual time it was sent.
      fetch: (input, init) => {
        const id = new Request(input, init).headers.get('client_id') ?? '';
        if (counter.admit(id, time.now(), limit)) {
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

  it('paces two clients of one client ID that declare different tiers at the stricter, and warns', async () => {
    // The gateway holds the client ID to bronze; one client says silver, the other bronze.
    const gateway = strictGateway(1);
    const warnings = await warningsDuring(async () => {
      const silver = gateway.client('app-5', 'silver');
      const bronze = gateway.client('app-5', 'bronze');
      const results = await Promise.allSettled([
        ...Array.from({ length: 4 }, () => call(silver)),
        ...Array.from({ length: 4 }, () => call(bronze)),
      ]);
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    });
    expect(gateway.tooManyRequests()).toBe(0);
    expect(gateway.counter.arrivals('app-5')).toHaveLength(8);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'Two clients of one client ID for http://127.0.0.1:9 declare 10/s and 1/s: both are paced ' +
        'at 1/s, the stricter, as the tier belongs to the client ID.',
    ]);
  });

  it('keeps the stricter rate when a later client of the client ID declares a looser one', async () => {
    const gateway = strictGateway(1);
    const warnings = await warningsDuring(async () => {
      const bronze = gateway.client('app-6', 'bronze');
      const gold = gateway.client('app-6', 'gold');
      await Promise.all([call(gold), call(bronze), call(gold)]);
    });
    expect(gateway.tooManyRequests()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('declare 1/s and 100/s: both are paced at 1/s');
  });

  it('counts the calls made before a stricter rate in its window', async () => {
    // The gateway holds the client ID to silver; a client that said gold already made a call.
    const gateway = strictGateway();
    await warningsDuring(async () => {
      const gold = gateway.client('app-8', 'gold');
      await call(gold);
      const silver = gateway.client('app-8', 'silver');
      const results = await Promise.allSettled(Array.from({ length: 25 }, () => call(silver)));
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    });
    expect(gateway.tooManyRequests()).toBe(0);
    expect(gateway.counter.arrivals('app-8')).toHaveLength(26);
  });

  it("tells the stricter rate to the client's logger, when it has one", async () => {
    const gateway = strictGateway(1);
    const logged: string[] = [];
    const warnings = await warningsDuring(async () => {
      gateway.client('app-7', 'gold');
      gateway.client('app-7', 'bronze', { warn: (message) => logged.push(message) });
    });
    expect(warnings).toEqual([]);
    expect(logged).toEqual([
      expect.stringContaining('declare 100/s and 1/s: both are paced at 1/s'),
    ]);
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
    const first = pipelineRateLimiter(undefined, scope('app-3'), ignore);
    const second = pipelineRateLimiter(undefined, scope('app-3'), ignore);
    const other = pipelineRateLimiter(undefined, scope('app-4'), ignore);
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
    expect(pipelineRateLimiter(undefined, scope, ignore)).not.toBe(
      pipelineRateLimiter(undefined, scope, ignore),
    );
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
