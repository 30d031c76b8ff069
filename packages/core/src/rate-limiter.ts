/** Calls per second of the upstream tiers (the approvals document's table). */
export const RATE_LIMIT_TIERS = { bronze: 1, silver: 10, gold: 100 } as const;

/** A tier name of `RATE_LIMIT_TIERS`. */
export type RateLimitTier = keyof typeof RATE_LIMIT_TIERS;

/** A rate other than the tiers. */
export interface CustomRateLimit {
  requestsPerSecond: number;
  /** How many requests may go at once after a quiet spell; 1 (evenly spaced) by default. */
  burst?: number | undefined;
}

/** Hands out send slots; every attempt of every call of one client takes one. */
export interface RateLimiter {
  /** Resolves when the next request may go; `undefined` when it may go at once. */
  take(signal: AbortSignal): Promise<void> | undefined;
}

/**
 * A token bucket, written as the generic cell rate algorithm: each request reserves the next
 * slot synchronously, so concurrent callers are served in order and never exceed the rate.
 */
export function createRateLimiter(
  rate: CustomRateLimit,
  clock: () => number,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): RateLimiter {
  const interval = 1000 / rate.requestsPerSecond;
  const tolerance = ((rate.burst ?? 1) - 1) * interval;
  let theoreticalArrival = Number.NEGATIVE_INFINITY;
  return {
    take(signal) {
      const now = clock();
      const slot = Math.max(now, theoreticalArrival - tolerance);
      theoreticalArrival = Math.max(theoreticalArrival, slot) + interval;
      return slot > now ? sleep(slot - now, signal) : undefined;
    },
  };
}
