import { randomBytes } from 'node:crypto';
import type { FleetRateScope } from '@partner-apis/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFleetConnection, type FleetConnection } from './fleet-connection.js';
import { createFleetRateLimiter } from './fleet-rate-limiter.js';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';

let redis: RedisServer;
const connections: FleetConnection[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(async () => {
  await redis?.stop();
});

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const signal = new AbortController().signal;

/**
 * A process's limiter at `requestsPerSecond`, on a connection whose commands reach Redis
 * `lateMs` after they were sent; `slots` gets the slot of every grant, by Redis's clock.
 */
function limiter(options: { requestsPerSecond: number; marginMs: number; lateMs?: number }) {
  const connection = createFleetConnection({
    client: new Redis(redis.url),
    owned: true,
    option: 'url',
    timeoutMs: 5_000,
    connectTimeoutMs: 10_000,
    probeIntervalMs: 1_000,
    events: {},
  });
  connections.push(connection);
  const slots: number[] = [];
  const late: FleetConnection = Object.create(connection, {
    run: {
      value: async (...args: Parameters<FleetConnection['run']>) => {
        await wait(options.lateMs ?? 0);
        const answer = await connection.run(...args);
        if (Array.isArray(answer)) slots.push(Number(answer[1]));
        return answer;
      },
    },
  });
  const scope: FleetRateScope = {
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'client-clock',
    rate: { requestsPerSecond: options.requestsPerSecond },
    localLimiter: () => {
      throw new Error('the fleet paces the calls');
    },
    sleep: (ms) => wait(ms),
    clock: Date.now,
  };
  const rateLimiter = createFleetRateLimiter(scope, {
    connection: late,
    keyPrefix: `t${randomBytes(4).toString('hex')}:`,
    marginMs: options.marginMs,
    processId: 'process-1',
    handBackMs: 2000,
  });
  return { rateLimiter, slots };
}

describe.skipIf(!runRedisTests)('the fleet rate limiter', () => {
  it("never lets a call go before its slot by Redis's clock, however late Redis reads it", async () => {
    // Each command reaches Redis 200 ms after it was sent and is answered at once: the middle
    // of the round trip would put Redis's clock 100 ms ahead of where it is.
    const { rateLimiter, slots } = limiter({ requestsPerSecond: 1, marginMs: 1000, lateMs: 200 });
    const goneAt: number[] = [];
    for (let call = 0; call < 2; call += 1) {
      await rateLimiter.take(signal);
      goneAt.push(Date.now());
    }
    // Redis's clock is this machine's; the second slot lies an interval (2 s) ahead.
    expect(goneAt[0]).toBeGreaterThanOrEqual(Math.floor(slots[0]!));
    expect(goneAt[1]).toBeGreaterThanOrEqual(Math.floor(slots[1]!));
  });

  it('gives up a slot its process stalled past, right before the request is written', async () => {
    // Half the margin, 500 ms, is how late a call may go.
    const { rateLimiter, slots } = limiter({ requestsPerSecond: 10, marginMs: 1000 });
    const onTime = await rateLimiter.take(signal);
    expect(onTime.beforeWrite?.()).toBeUndefined();
    const stalled = await rateLimiter.take(signal);
    await wait(600);
    const replaced = stalled.beforeWrite?.();
    expect(replaced).toBeInstanceOf(Promise);
    await replaced;
    // A new slot was taken, and the request may go at once.
    expect(slots).toHaveLength(3);
    expect(stalled.beforeWrite?.()).toBeUndefined();
  });
});
