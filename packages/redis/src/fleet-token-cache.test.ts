import { randomBytes } from 'node:crypto';
import type { CachedToken } from '@partner-apis/auth';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetConnection, type FleetConnection } from './fleet-connection.js';
import { FleetTokenCache } from './fleet-token-cache.js';
import { runRedisTests, startRedisServer, type RedisServer } from './redis-server.fixture.js';
import { createTokenSealing } from './token-sealing.js';

let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

function connectionTo(url: string): FleetConnection {
  return createFleetConnection({
    client: new Redis(url),
    owned: true,
    option: 'url',
    timeoutMs: 5_000,
    connectTimeoutMs: 10_000,
    probeIntervalMs: 1_000,
    events: {},
  });
}

const token = (n: number): CachedToken => ({
  accessToken: `token-${n}`,
  expiresAt: Date.now() + 60_000,
  refreshAt: Date.now() + 30_000,
  lifetimeSeconds: 60,
});

describe.skipIf(!runRedisTests)('FleetTokenCache', () => {
  it('takes the token another process stored between its look and its lock', async () => {
    const connection = connectionTo(redis.url);
    const settings = {
      connection,
      sealing: createTokenSealing(randomBytes(32)),
      keyPrefix: `t${randomBytes(4).toString('hex')}:`,
      lockMs: 5_000,
      pollMs: 20,
    };
    // Process B's second command (its lock) waits until process A has stored a token and let go.
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let commands = 0;
    const gated: FleetConnection = Object.create(connection, {
      run: {
        value: async (...args: Parameters<FleetConnection['run']>) => {
          commands += 1;
          if (commands === 2) await gate;
          return connection.run(...args);
        },
      },
    });
    const a = new FleetTokenCache(settings);
    const b = new FleetTokenCache({ ...settings, connection: gated });
    let requests = 0;
    try {
      const fromB = b.singleFlight('entry', async () => token(++requests));
      for (let i = 0; i < 500 && commands < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(commands).toBe(2);
      const fromA = await a.singleFlight('entry', async () => token(++requests));
      open();
      expect((await fromB).accessToken).toBe(fromA.accessToken);
      expect(requests).toBe(1);
    } finally {
      open();
      await connection.close();
    }
  });
});
