import { randomBytes } from 'node:crypto';
import { createApprovalsClient } from '@partner-apis/approvals';
import { ConfigurationError, TimeoutError } from '@partner-apis/errors';
import { createExposureClient } from '@partner-apis/exposure';
import { startSandbox, type Sandbox } from '@partner-apis/sandbox';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisFleet, type FleetDegradedEvent, type RedisFleet } from './index.js';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';

let redis: RedisServer;
let sb: Sandbox;
const fleets: RedisFleet[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  sb = await startSandbox({ port: 0, credentials: { approvals: { tier: 'silver' } } });
  // The sandbox compiles its validators on the first calls; until then it answers late and
  // would see the first calls of a test later than they were sent.
  await approvals(undefined).approvals.list(employee());
  await exposure(undefined).locations.page({ limit: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  sb.resetStats();
});
afterAll(async () => {
  await sb?.close();
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(fleets.splice(0).map((fleet) => fleet.close()));
  sb.resetStats();
});

/** A fleet as one process would create it; each has its own connection and local state. */
function processFleet(options: Parameters<typeof createRedisFleet>[0] = {}): RedisFleet {
  const fleet = createRedisFleet({
    url: redis.url,
    keyPrefix: `t${randomBytes(4).toString('hex')}:`,
    ...options,
  });
  fleets.push(fleet);
  return fleet;
}

/** Fleets of several processes that share one key prefix, as processes of one deployment do. */
function deployment(count: number, options: Parameters<typeof createRedisFleet>[0] = {}) {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:`;
  return Array.from({ length: count }, () => processFleet({ keyPrefix, ...options }));
}

function approvals(fleet: RedisFleet | undefined) {
  return createApprovalsClient({
    baseUrl: sb.urls.approvals,
    credentials: sb.credentials.approvals,
    tier: 'silver',
    retry: { attempts: 1 },
    fleet,
  });
}

function exposure(fleet: RedisFleet | undefined) {
  return createExposureClient({
    baseUrl: sb.urls.exposure,
    tokenUrl: sb.urls.tokenUrl,
    credentials: sb.credentials.exposure,
    fleet,
  });
}

const employee = () => sb.fixtures.employeeWithApprovals;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!runRedisTests)('createRedisFleet against redis-server', () => {
  it('paces the clients of two processes together to the tier: no 429 at the gateway', async () => {
    // The margin covers how late a call may reach the gateway after its slot: on a machine
    // running every test suite at once that is more than the default 50 ms.
    const clients = deployment(2, { windowMarginMs: 250 }).map(approvals);
    // 12 calls per process: alone, each would send 10 in its first second, 20 together.
    const calls = clients.flatMap((client) =>
      Array.from({ length: 12 }, () => client.approvals.list(employee())),
    );
    const results = await Promise.allSettled(calls);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(sb.stats().totals.tooManyRequests).toBe(0);
  });

  it('keeps the tiers of two client IDs apart', async () => {
    // A wide margin, so that a slow round trip on a busy machine never makes a slot stale.
    const [one, two] = deployment(2, { windowMarginMs: 2000 });
    let seen = 0;
    const scopes = [one!, two!].map((fleet, index) =>
      fleet.rateLimiter({
        baseUrl: sb.urls.approvals,
        clientId: `client-${index}`,
        rate: { requestsPerSecond: 1 },
        localLimiter: () => ({ take: () => ({ sent: () => undefined }) }),
        sleep: async (ms) => {
          seen = Math.max(seen, ms);
        },
        clock: Date.now,
      }),
    );
    const signal = new AbortController().signal;
    await scopes[0]!.take(signal);
    await scopes[1]!.take(signal);
    // One call a second each: two different clients both go at once (a slot starts on a whole
    // millisecond, so a wait of one may come first), and a second call of one waits its second.
    expect(seen).toBeLessThan(100);
    await scopes[0]!.take(signal);
    expect(seen).toBeGreaterThan(500);
  });

  it('asks once for the token of a cold fleet, for every process and call', async () => {
    const clients = deployment(3).flatMap((fleet) => [exposure(fleet), exposure(fleet)]);
    await Promise.all(clients.map((client) => client.locations.page({ limit: 1 })));
    expect(sb.stats().routes['auth.requestToken']?.tokenIssues).toBe(1);
  });

  it('refreshes the token once for the fleet before it expires', async () => {
    const [first, second] = deployment(2);
    sb.setTokenLifetime(2);
    try {
      await exposure(first).locations.page({ limit: 1 });
      // Past the refresh point (half of a 2 s lifetime), before expiry.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await Promise.all([
        exposure(first).locations.page({ limit: 1 }),
        exposure(second).locations.page({ limit: 1 }),
        exposure(second).locations.page({ limit: 1 }),
      ]);
    } finally {
      sb.setTokenLifetime(3600);
    }
    expect(sb.stats().routes['auth.requestToken']?.tokenIssues).toBe(2);
  });

  it('takes a new token when the service refuses the shared one, and shares that', async () => {
    const [first, second] = deployment(2);
    await exposure(first).locations.page({ limit: 1 });
    await exposure(second).locations.page({ limit: 1 });
    sb.expireTokens();
    // Both processes hold the refused token; one replaces it, the other takes the replacement.
    await exposure(first).locations.page({ limit: 1 });
    await exposure(second).locations.page({ limit: 1 });
    expect(sb.stats().routes['auth.requestToken']?.tokenIssues).toBe(2);
  });

  it("pauses every process for a 429's Retry-After", async () => {
    const [one, two] = deployment(2);
    const waits: number[][] = [[], []];
    const [first, second] = [one!, two!].map((fleet, index) =>
      fleet.rateLimiter({
        baseUrl: sb.urls.approvals,
        clientId: 'client-pause',
        rate: { requestsPerSecond: 10 },
        localLimiter: () => {
          throw new Error('the fleet shares its pauses through Redis');
        },
        sleep: async (ms) => void waits[index]!.push(ms),
        clock: Date.now,
      }),
    );
    const signal = new AbortController().signal;
    await first!.take(signal);
    await second!.take(signal);
    // Well past the slots taken so far, so that only the pause can explain the waits below.
    await wait(500);
    waits[0]!.length = 0;
    waits[1]!.length = 0;
    first!.pause?.(800);
    // The first process's own take goes after its pause on the same connection.
    await first!.take(signal);
    await second!.take(signal);
    expect(Math.max(...waits[0]!)).toBeGreaterThan(700);
    expect(Math.max(...waits[1]!)).toBeGreaterThan(700);
  });

  it('paces calls at the whole rate alone once closed, rather than ask a closed connection', async () => {
    const fleet = processFleet();
    let alone = 0;
    const limiter = fleet.rateLimiter({
      baseUrl: sb.urls.approvals,
      clientId: 'client-closed',
      rate: { requestsPerSecond: 10 },
      localLimiter: () => ({
        take: () => {
          alone += 1;
          return { sent: () => undefined };
        },
      }),
      sleep: async () => undefined,
      clock: Date.now,
    });
    const signal = new AbortController().signal;
    await limiter.take(signal);
    await fleet.close();
    await limiter.take(signal);
    await limiter.take(signal);
    expect(alone).toBe(2);
  });

  it(
    "takes turns in cells of its own while Redis is away, and keeps a 429's pause",
    { timeout: 60_000 },
    async () => {
      const fleets = deployment(2);
      /** When each take of each process would send (by this machine's clock). */
      const sends: number[][] = [[], []];
      /** Where each process's last sleep would end: the last one of a take is its slot. */
      const ends = [0, 0];
      const limiters = fleets.map((fleet, index) =>
        fleet.rateLimiter({
          baseUrl: sb.urls.approvals,
          clientId: 'client-turns',
          rate: { requestsPerSecond: 10 },
          localLimiter: () => {
            throw new Error('the fleet paces itself while Redis is away');
          },
          // Short real sleeps: a take resolves before its slot, but knows where it lies.
          sleep: async (ms) => {
            ends[index] = Date.now() + ms;
            await wait(Math.min(ms, 20));
          },
          clock: Date.now,
        }),
      );
      const take = async (index: number, signal: AbortSignal) => {
        ends[index] = Date.now();
        await limiters[index]!.take(signal);
        sends[index]!.push(ends[index]!);
      };
      const signal = new AbortController().signal;
      // A roster takes effect 10 s after Redis wrote it: the first one written holds the first
      // process, the next one, a second later, both. Slots until then keep both known peers.
      const joined = Date.now();
      while (Date.now() < joined + 11_500) {
        for (const index of [0, 1]) await take(index, signal);
        await wait(1000);
      }
      for (const index of [0, 1]) await take(index, signal);
      await redis.kill();
      const killedAt = Date.now();
      for (const times of sends) times.length = 0;
      try {
        for (let round = 0; round < 3; round += 1) {
          for (const index of [0, 1]) await take(index, signal);
        }
        expect(fleets.every((fleet) => fleet.degraded)).toBe(true);
        const all = sends
          .flatMap((times, index) => times.map((at) => ({ at, index })))
          .sort((a, b) => a.at - b.at);
        expect(all).toHaveLength(6);
        // None before every slot Redis may have granted is past, a window (1050 ms) after it
        // went, and an interval (105 ms) more.
        expect(all[0]!.at).toBeGreaterThanOrEqual(killedAt + 1155 - 50);
        for (let i = 1; i < all.length; i += 1) {
          // One cell (105 ms) apart, the two processes taking turns.
          expect(all[i]!.at - all[i - 1]!.at).toBeGreaterThanOrEqual(105 - 2);
          expect(all[i]!.index).not.toBe(all[i - 1]!.index);
        }
        // A 429's pause holds in the process while Redis is away.
        const paused = Date.now();
        limiters[0]!.pause?.(2000);
        await take(0, signal);
        expect(sends[0]!.at(-1)).toBeGreaterThanOrEqual(paused + 2000 - 50);
      } finally {
        await redis.restart();
      }
    },
  );

  it('waits for Redis when a process has no cell of its own, and never sends alone', async () => {
    const [fleet] = deployment(1);
    let sleeps = 0;
    const limiter = fleet!.rateLimiter({
      baseUrl: sb.urls.approvals,
      clientId: 'client-new',
      rate: { requestsPerSecond: 10 },
      localLimiter: () => {
        throw new Error('the fleet never paces a process alone at the whole rate');
      },
      sleep: async (ms) => {
        sleeps += 1;
        await wait(ms);
      },
      clock: Date.now,
    });
    const signal = new AbortController().signal;
    await limiter.take(signal);
    await redis.kill();
    // Joined within the last 10 s: no roster in effect has a place for it.
    const taken = limiter.take(signal);
    await wait(1000);
    const waited = sleeps;
    await redis.restart();
    await taken;
    expect(waited).toBeGreaterThan(1);
    expect(fleet!.degraded).toBe(false);
  });

  it('stores tokens under digests, sealed with the key given, expiring with the token', async () => {
    const keyPrefix = `t${randomBytes(4).toString('hex')}:`;
    const encryptionKey = randomBytes(32);
    const fleet = processFleet({ keyPrefix, encryptionKey });
    await exposure(fleet).locations.page({ limit: 1 });
    const reader = new Redis(redis.url);
    try {
      const keys = await reader.keys(`${keyPrefix}*`);
      const tokenKeys = keys.filter((key) => key.startsWith(`${keyPrefix}token:`));
      expect(tokenKeys).toHaveLength(1);
      const { clientId, clientSecret } = sb.credentials.exposure;
      for (const key of keys) {
        expect(key).not.toContain(clientId);
        expect(key).not.toContain('token/');
      }
      const stored = (await reader.get(tokenKeys[0]!)) ?? '';
      const ttl = await reader.pttl(tokenKeys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3600_000);
      expect(stored).not.toContain(clientSecret);
      expect(stored.startsWith('g1.')).toBe(true);
      // A process with another key cannot read it, so it asks for a token of its own.
      const other = processFleet({ keyPrefix, encryptionKey: randomBytes(32) });
      await exposure(other).locations.page({ limit: 1 });
      expect(sb.stats().routes['auth.requestToken']?.tokenIssues).toBe(2);
    } finally {
      reader.disconnect();
    }
  });

  it('waits for a Redis it never reached, says so once, and calls once it is up', async () => {
    const down: FleetDegradedEvent[] = [];
    await redis.kill();
    const fleet = processFleet({ events: { onFleetDegraded: (event) => down.push(event) } });
    const client = approvals(fleet);
    let call: Promise<unknown> | undefined;
    try {
      call = Promise.all([client.approvals.list(employee()), client.approvals.list(employee())]);
      await wait(1000);
    } finally {
      await redis.restart();
    }
    await call;
    expect(down).toHaveLength(1);
    expect(fleet.degraded).toBe(false);
  });

  it('survives Redis killed mid-run and shares again once it is back, empty', async () => {
    const down: FleetDegradedEvent[] = [];
    let restored = 0;
    const fleet = processFleet({
      events: {
        onFleetDegraded: (event) => down.push(event),
        onFleetRestored: () => (restored += 1),
      },
    });
    const client = approvals(fleet);
    await client.approvals.list(employee());
    await redis.kill();
    let calls: Promise<unknown> | undefined;
    try {
      calls = Promise.all([client.approvals.list(employee()), client.approvals.list(employee())]);
      await wait(500);
      expect(down.length).toBe(1);
      expect(fleet.degraded).toBe(true);
    } finally {
      await redis.restart();
    }
    // The script is gone with the data: the fleet loads it again.
    await calls;
    expect(restored).toBe(1);
    await client.approvals.list(employee());
    expect(fleet.degraded).toBe(false);
  });

  it('never holds a call past Redis answering again when Redis hangs', async () => {
    const down: FleetDegradedEvent[] = [];
    const fleet = processFleet({ events: { onFleetDegraded: (event) => down.push(event) } });
    const client = approvals(fleet);
    await client.approvals.list(employee());
    redis.freeze();
    let call: Promise<unknown> | undefined;
    try {
      call = client.approvals.list(employee());
      await wait(1000);
    } finally {
      redis.thaw();
    }
    await call;
    expect(down.map((event) => event.reason)).toEqual(['timeout']);
  });

  it('gives up waiting on a hung Redis when the call times out', async () => {
    const fleet = processFleet({ timeoutMs: 20_000 });
    const client = createApprovalsClient({
      baseUrl: sb.urls.approvals,
      credentials: sb.credentials.approvals,
      tier: 'silver',
      timeout: { totalMs: 500 },
      fleet,
    });
    await client.approvals.list(employee());
    redis.freeze();
    try {
      // Were the call to wait for Redis's 20 s, it would then go on alone and succeed.
      const error = await client.approvals.list(employee()).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(TimeoutError);
    } finally {
      redis.thaw();
    }
  });

  it('reports a wrong password as a ConfigurationError naming url', async () => {
    const guarded = await startRedisServer({ password: 'right-password' });
    try {
      const fleet = createRedisFleet({
        url: `redis://:wrong-password@127.0.0.1:${guarded.port}`,
      });
      fleets.push(fleet);
      const error = await approvals(fleet)
        .approvals.list(employee())
        .catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe('url');
      expect((error as Error).message).not.toContain('wrong-password');
    } finally {
      await guarded.stop();
    }
  });
});

describe('createRedisFleet options', () => {
  it.each([
    [{ url: 'http://127.0.0.1:6379' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'redis://127.0.0.1/cache' }, 'url'],
    [{}, 'url'],
    [{ url: 'redis://127.0.0.1', client: {} }, 'url'],
    [{ client: {} }, 'client'],
    [{ url: 'redis://127.0.0.1', timeoutMs: -1 }, 'timeoutMs'],
    [{ url: 'redis://127.0.0.1', windowMarginMs: 'none' }, 'windowMarginMs'],
    [{ url: 'redis://127.0.0.1', encryptionKey: 'c2hvcnQ=' }, 'encryptionKey'],
    [{ url: 'redis://127.0.0.1', encryptionKey: new Uint8Array(16) }, 'encryptionKey'],
  ])('refuses %j, naming %s', (options, option) => {
    let error: unknown;
    try {
      fleets.push(createRedisFleet(options as never));
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe(option);
  });

  it('never shows the password of a bad URL', () => {
    expect(() => createRedisFleet({ url: 'http://:s3cret@127.0.0.1' })).toThrow(
      'url: must be a redis:// or rediss:// URL with a host (got http://127.0.0.1)',
    );
  });
});
