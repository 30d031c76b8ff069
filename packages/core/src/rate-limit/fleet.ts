import type { TokenCache } from '@partner-apis/auth';
import { ConfigurationError } from '@partner-apis/errors';
import type { CustomRateLimit, RateLimiter } from './limiter.js';

/** What one shared limiter is for: one client application calling one service at one rate. */
export interface FleetRateScope {
  /** The service address; calls to other services are paced apart. */
  readonly baseUrl: string;
  /** The client ID of the auth scheme, when it has one: the tier belongs to it. */
  readonly clientId: string | undefined;
  readonly rate: CustomRateLimit;
  /**
   * Builds an in-process limiter at the rate it is given: the one a client without a fleet
   * uses, and one a fleet may fall back on.
   */
  readonly localLimiter: (rate: CustomRateLimit) => RateLimiter;
  /** The pipeline's wait; rejects when the signal aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The pipeline's clock, in ms since the epoch. */
  readonly clock: () => number;
}

/**
 * Processes that share one rate tier and one token cache, e.g. `createRedisFleet` of
 * `@partner-apis/redis`. Give it to a client as `fleet`; the client never closes it.
 */
export interface Fleet {
  /** A limiter that paces the calls of every process of the fleet together. */
  rateLimiter(scope: FleetRateScope): RateLimiter;
  /** Access tokens shared by every process of the fleet: one token request for all. */
  readonly tokenCache: TokenCache;
  /** Lets go of the fleet's connections; clients that use it must not call afterwards. */
  close(): Promise<void>;
}

/**
 * The `fleet` option, checked: `undefined`, or an object with the shape of a `Fleet`.
 */
export function resolveFleet(value: unknown): Fleet | undefined {
  if (value === undefined) return undefined;
  const candidate = value as Partial<Fleet> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.rateLimiter !== 'function' ||
    typeof candidate.tokenCache?.singleFlight !== 'function'
  ) {
    throw new ConfigurationError('fleet', 'must be a fleet, e.g. createRedisFleet({ url })');
  }
  return candidate as Fleet;
}
