import { ConfigurationError, parseRetryAfter } from '@partner-apis/errors';
import { resolveFleet, type Fleet } from '../rate-limit/fleet.js';
import {
  RATE_LIMIT_TIERS,
  type CustomRateLimit,
  type RateLimiter,
  type RateLimitTier,
} from '../rate-limit/limiter.js';
import type { Step } from './call.js';
import { number, section, type Resolver } from './options.js';

/** The client-side pace of calls. */
export interface RateLimitOptions {
  /** A tier of the upstream (`bronze` 1/s, `silver` 10/s, `gold` 100/s) or a custom rate. */
  rateLimit?: RateLimitTier | CustomRateLimit | undefined;
  /** Processes sharing the rate limit and the tokens, e.g. `createRedisFleet({ url })`. */
  fleet?: Fleet | undefined;
}

/** The rate and the fleet, checked. */
export interface ResolvedRateLimit {
  readonly rate: CustomRateLimit | undefined;
  readonly fleet: Fleet | undefined;
}

function resolveRate(value: unknown): CustomRateLimit | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (!Object.hasOwn(RATE_LIMIT_TIERS, value)) {
      throw new ConfigurationError(
        'rateLimit',
        `must be bronze, silver, gold or { requestsPerSecond } (got ${value})`,
      );
    }
    return { requestsPerSecond: RATE_LIMIT_TIERS[value as RateLimitTier] };
  }
  const rate = section('rateLimit', value, '{ requestsPerSecond, burst? }');
  return {
    requestsPerSecond: number('rateLimit.requestsPerSecond', rate.requestsPerSecond ?? Number.NaN, {
      fallback: 0,
      min: 0.001,
      max: 1e6,
    }),
    burst: number('rateLimit.burst', rate.burst, { fallback: 1, min: 1, max: 1e6, integer: true }),
  };
}

/**
 * Checks `rateLimit` and `fleet` once, when the client is built.
 */
export const resolveRateLimitOptions: Resolver<RateLimitOptions, ResolvedRateLimit> = (
  options,
) => ({ rate: resolveRate(options.rateLimit), fleet: resolveFleet(options.fleet) });

/**
 * The step that takes a slot of the client application's limiter right before sending (time
 * spent getting a token must not bunch the requests up at the server), and pauses every call
 * of that application (and, with a fleet, of every process) for a 429's `Retry-After`.
 */
export function rateLimitStep(
  limiter: RateLimiter,
  maxRetryAfterMs: number,
  clock: () => number,
): Step {
  return async (call, next) => {
    const slot = await limiter.take(call.scope.signal);
    call.slot = slot;
    let reply;
    try {
      reply = await next(call);
    } finally {
      slot.sent();
      call.slot = undefined;
    }
    const { answer } = reply;
    if (answer.status === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), clock());
      if (retryAfterMs !== undefined) limiter.pause?.(Math.min(retryAfterMs, maxRetryAfterMs));
    }
    return reply;
  };
}
