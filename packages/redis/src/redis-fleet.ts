import { randomUUID } from 'node:crypto';
import type { Fleet, RateLimiter } from '@partner-apis/core';
import { ConfigurationError, redactUrl } from '@partner-apis/errors';
import { Redis } from 'ioredis';
import { createFleetConnection, type FleetEvents } from './fleet-connection.js';
import { createFleetRateLimiter } from './fleet-rate-limiter.js';
import { FleetTokenCache } from './fleet-token-cache.js';
import { createTokenSealing, encryptionKeyBytes } from './token-sealing.js';

/** Options of `createRedisFleet`: `url` or `client`, not both. */
export interface RedisFleetOptions {
  /**
   * `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. The fleet opens its
   * own connection and `close()` ends it.
   */
  url?: string | undefined;
  /** An ioredis client of yours, used as it is; `close()` leaves it open. */
  client?: Redis | undefined;
  /** Starts every key the fleet writes; `partner-apis:` by default. */
  keyPrefix?: string | undefined;
  /** How long one Redis command may take before the fleet falls back; 500 ms by default. */
  timeoutMs?: number | undefined;
  /**
   * Added to every rate window, for the spread between a slot and the call reaching the
   * server (event loop, network); 50 ms by default.
   */
  windowMarginMs?: number | undefined;
  /** Encrypts tokens in Redis (AES-256-GCM): 32 random bytes, as bytes or base64. */
  encryptionKey?: Uint8Array | string | undefined;
  /** `onFleetDegraded` and `onFleetRestored`. */
  events?: FleetEvents | undefined;
}

/** A fleet on Redis: give it to any client as `fleet`. */
export interface RedisFleet extends Fleet {
  /** True while Redis cannot be used and each process goes on with its local share. */
  readonly degraded: boolean;
}

const TOKEN_LOCK_MS = 10_000;
const TOKEN_POLL_MS = 50;
const PROBE_INTERVAL_MS = 250;
/**
 * How long the processes keep to their own cells once Redis is back: longer than the last one
 * takes to notice (a reconnection, at most `RECONNECT_MAX_MS` after Redis is up, then a probe).
 */
const HAND_BACK_MS = 2000;
const RECONNECT_MAX_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

function numberOption(option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new ConfigurationError(
      option,
      `must be a number from 0 to ${max} (got ${String(value)})`,
    );
  }
  return value;
}

function isRedisClient(value: unknown): value is Redis {
  const client = value as Partial<Redis> | null;
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof client.evalsha === 'function' &&
    typeof client.on === 'function'
  );
}

function checkedUrl(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    const shown = typeof value === 'string' ? ` (got ${redactUrl(value)})` : '';
    throw new ConfigurationError('url', `must be a redis:// or rediss:// URL${shown}`);
  }
  const url = new URL(value);
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new ConfigurationError(
      'url',
      `must be a redis:// or rediss:// URL with a host (got ${redactUrl(value)})`,
    );
  }
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) {
    throw new ConfigurationError(
      'url',
      `must name the database by its number (got ${redactUrl(value)})`,
    );
  }
  return value;
}

/**
 * Creates a fleet on Redis: the clients of every process given the same fleet share one rate
 * tier (a sliding window kept by one atomic script) and one OAuth 2.0 token per client (one
 * token request for the whole fleet). When Redis is unreachable, slow or restarted,
 * `onFleetDegraded` is reported and each process keeps to time cells of its own, so the fleet
 * stays within the tier; a process with no cells yet waits for Redis. Sharing resumes when
 * Redis answers. A bad URL, option or password is a `ConfigurationError` naming the option.
 *
 * @example
 * import { createRedisFleet } from '@partner-apis/redis';
 * import { createApprovalsClient } from '@partner-apis/approvals';
 *
 * const fleet = createRedisFleet({ url: 'redis://127.0.0.1:6379' });
 * const approvals = createApprovalsClient({ baseUrl, credentials, tier: 'silver', fleet });
 * await approvals.approvals.list('100234');
 * await fleet.close();
 */
export function createRedisFleet(options: RedisFleetOptions): RedisFleet {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('options', 'must be an object');
  }
  if ((options.url === undefined) === (options.client === undefined)) {
    throw new ConfigurationError('url', 'give either url or client (an ioredis client), not both');
  }
  if (options.client !== undefined && !isRedisClient(options.client)) {
    throw new ConfigurationError('client', 'must be an ioredis client, e.g. new Redis(url)');
  }
  const keyPrefix = options.keyPrefix ?? 'partner-apis:';
  if (typeof keyPrefix !== 'string') throw new ConfigurationError('keyPrefix', 'must be a string');
  const timeoutMs = numberOption('timeoutMs', options.timeoutMs, 500, 60_000);
  const marginMs = numberOption('windowMarginMs', options.windowMarginMs, 50, 10_000);
  const sealing = createTokenSealing(encryptionKeyBytes(options.encryptionKey));
  const events = options.events ?? {};
  if (typeof events !== 'object' || events === null) {
    throw new ConfigurationError('events', 'must be an object');
  }
  const owned = options.client === undefined;
  const client =
    options.client ??
    new Redis(checkedUrl(options.url), {
      // Commands wait while the connection is (re)made, but never longer than `timeoutMs`:
      // the fleet stops waiting and falls back, and ioredis drops them after one retry.
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(50 * attempt, RECONNECT_MAX_MS),
    });
  const connection = createFleetConnection({
    client,
    owned,
    option: owned ? 'url' : 'client',
    timeoutMs,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    probeIntervalMs: PROBE_INTERVAL_MS,
    events,
  });
  const processId = randomUUID();
  // One limiter per scope in the process: its own cells are the process's, whichever client
  // takes them.
  const limiters = new Map<string, RateLimiter>();
  return {
    tokenCache: new FleetTokenCache({
      connection,
      sealing,
      keyPrefix,
      lockMs: TOKEN_LOCK_MS,
      pollMs: TOKEN_POLL_MS,
    }),
    rateLimiter(scope) {
      const key = JSON.stringify([scope.baseUrl, scope.clientId, scope.rate.requestsPerSecond]);
      let limiter = limiters.get(key);
      if (limiter === undefined) {
        limiter = createFleetRateLimiter(scope, {
          connection,
          keyPrefix,
          marginMs,
          processId,
          handBackMs: HAND_BACK_MS,
        });
        limiters.set(key, limiter);
      }
      return limiter;
    },
    get degraded() {
      return connection.degraded;
    },
    close: () => connection.close(),
  };
}
