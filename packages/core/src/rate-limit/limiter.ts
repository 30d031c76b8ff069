import { rateLimitTiers } from '../generated/operations.js';

/** Calls per second of the platform's tiers: `x-rate-limit-tiers` of the shared components spec. */
export const RATE_LIMIT_TIERS = rateLimitTiers;

/** A tier name of `RATE_LIMIT_TIERS`. */
export type RateLimitTier = keyof typeof RATE_LIMIT_TIERS;

/** A rate other than the tiers. */
export interface CustomRateLimit {
  requestsPerSecond: number;
  /** How many requests may go at once after a quiet spell; 1 (evenly spaced) by default. */
  burst?: number | undefined;
}

/** The place of one request in the rate limiter's window. */
export interface RateSlot {
  /**
   * Marks the request as on the wire: the window counts it from now. Call it once the request
   * was written (or failed, or its response began); until then it counts as just sent.
   */
  sent(): void;
}

/** Hands out send slots; every attempt of every call of one client takes one. */
export interface RateLimiter {
  /** Resolves with a slot when the next request may go; a slot at once when it may go now. */
  take(signal: AbortSignal): RateSlot | Promise<RateSlot>;
  /**
   * The server refused a request for the rate (a 429) and asked for `ms` of quiet (its
   * `Retry-After`): no slot is handed out before then, to any caller sharing this limiter.
   */
  pause?(ms: number): void;
}

/**
 * Added to the window: the server's clock and the way to it may differ from ours by this much.
 */
export const RATE_SAFETY_MARGIN_MS = 20;

interface Entry extends RateSlot {
  /** When the request went on the wire; `Infinity` until it did. */
  at: number;
}

/**
 * A rate limiter that keeps two promises: requests are spaced by the generic cell rate
 * algorithm (`burst` may go at once), and no more than `requestsPerSecond` are on the wire in
 * any rolling second (a sliding-window log, plus a small margin). A request counts in the log
 * from when it went on the wire, not from when its slot was handed out, so a first request that
 * spent time setting up its connection cannot bunch up with the ones after it at the server.
 * Slots are handed out in order of asking.
 */
export function createRateLimiter(
  rate: CustomRateLimit,
  clock: () => number,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): RateLimiter {
  const interval = 1000 / rate.requestsPerSecond;
  const tolerance = ((rate.burst ?? 1) - 1) * interval;
  // Fractional rates become whole requests over a longer window: 2.5/s is 2 per 800 ms.
  const perWindow = Math.max(1, Math.floor(rate.requestsPerSecond));
  const windowMs = perWindow * interval + RATE_SAFETY_MARGIN_MS;
  let theoreticalArrival = Number.NEGATIVE_INFINITY;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let log: Entry[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  let onSent: (() => void)[] = [];

  /** How long until a slot is free (0: now), or `undefined` when only a `sent()` can free one. */
  function wait(now: number): number | undefined {
    log = log.filter((entry) => entry.at + windowMs > now);
    const spacing = Math.max(theoreticalArrival - tolerance, pausedUntil) - now;
    if (log.length < perWindow) return Math.max(0, spacing);
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of log) earliest = Math.min(earliest, entry.at);
    if (earliest === Number.POSITIVE_INFINITY) return undefined;
    return Math.max(spacing, earliest + windowMs - now);
  }

  function grant(now: number): RateSlot {
    theoreticalArrival = Math.max(theoreticalArrival, now) + interval;
    const entry: Entry = {
      at: Number.POSITIVE_INFINITY,
      sent() {
        if (entry.at !== Number.POSITIVE_INFINITY) return;
        // Never before the slot's own time, even by a clock that stands still in a test.
        entry.at = Math.max(clock(), now);
        const waiting = onSent;
        onSent = [];
        for (const wake of waiting) wake();
      },
    };
    log.push(entry);
    return entry;
  }

  function nextSent(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      onSent.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  async function acquire(signal: AbortSignal): Promise<RateSlot> {
    let now = clock();
    for (;;) {
      signal.throwIfAborted();
      const ms = wait(now);
      if (ms === 0) return grant(now);
      await (ms === undefined ? nextSent(signal) : sleep(ms, signal));
      // After a sleep of `ms`, at least `ms` has passed, whatever the clock says.
      now = Math.max(clock(), now + (ms ?? 0));
    }
  }

  return {
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, clock() + ms);
    },
    take(signal) {
      if (queued === 0) {
        const now = clock();
        if (wait(now) === 0) return grant(now);
      }
      queued += 1;
      const turn = queue.then(() => acquire(signal));
      queue = turn.catch(() => undefined).finally(() => (queued -= 1));
      // A caller that gives up is answered at once, not when its turn comes.
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      return new Promise<RateSlot>((resolve, reject) => {
        const onAbort = () => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        turn.then(
          (slot) => {
            signal.removeEventListener('abort', onAbort);
            resolve(slot);
          },
          (error: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(error as Error);
          },
        );
      });
    },
  };
}
