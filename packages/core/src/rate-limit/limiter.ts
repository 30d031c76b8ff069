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
  /**
   * Asked by the sender right before it writes, its connection up: `undefined` to go now, or,
   * when the slot was missed (the process stalled), a promise settled once a new one is due.
   */
  beforeWrite?(): Promise<void> | undefined;
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
  /** Paces calls at `rate` from now on, those admitted before counting in its window. */
  setRate?(rate: CustomRateLimit): void;
}

/** Added to the window: the server's clock and the way to it may differ from ours this much. */
const RATE_SAFETY_MARGIN_MS = 20;

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
  return new WindowRateLimiter(rate, clock, sleep);
}

class WindowRateLimiter implements RateLimiter {
  #interval = 0;
  #tolerance = 0;
  #perWindow = 1;
  #windowMs = 0;
  #theoreticalArrival = Number.NEGATIVE_INFINITY;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #log: Entry[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #queued = 0;
  #onSent: (() => void)[] = [];

  constructor(
    rate: CustomRateLimit,
    private readonly clock: () => number,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  ) {
    this.setRate(rate);
  }

  setRate(rate: CustomRateLimit): void {
    const interval = 1000 / rate.requestsPerSecond;
    // The next request keeps the new spacing from the last one; the log keeps every request
    // made, so the window of the new rate counts them.
    this.#theoreticalArrival += interval - this.#interval;
    this.#interval = interval;
    this.#tolerance = ((rate.burst ?? 1) - 1) * interval;
    // Fractional rates become whole requests over a longer window: 2.5/s is 2 per 800 ms.
    this.#perWindow = Math.max(1, Math.floor(rate.requestsPerSecond));
    this.#windowMs = this.#perWindow * interval + RATE_SAFETY_MARGIN_MS;
  }

  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.clock() + ms);
  }

  take(signal: AbortSignal): RateSlot | Promise<RateSlot> {
    if (this.#queued === 0) {
      const now = this.clock();
      if (this.#wait(now) === 0) return this.#grant(now);
    }
    this.#queued += 1;
    const turn = this.#queue.then(() => this.#acquire(signal));
    this.#queue = turn.catch(() => undefined).finally(() => (this.#queued -= 1));
    // A caller that gives up is answered at once, not when its turn comes.
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<RateSlot>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** How long until a slot is free (0: now), or `undefined` when only a `sent()` can free one. */
  #wait(now: number): number | undefined {
    this.#log = this.#log.filter((entry) => entry.at + this.#windowMs > now);
    const spacing = Math.max(this.#theoreticalArrival - this.#tolerance, this.#pausedUntil) - now;
    if (this.#log.length < this.#perWindow) return Math.max(0, spacing);
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.#log) earliest = Math.min(earliest, entry.at);
    if (earliest === Number.POSITIVE_INFINITY) return undefined;
    return Math.max(spacing, earliest + this.#windowMs - now);
  }

  #grant(now: number): RateSlot {
    this.#theoreticalArrival = Math.max(this.#theoreticalArrival, now) + this.#interval;
    const entry: Entry = {
      at: Number.POSITIVE_INFINITY,
      sent: () => {
        if (entry.at !== Number.POSITIVE_INFINITY) return;
        // Never before the slot's own time, even by a clock that stands still in a test.
        entry.at = Math.max(this.clock(), now);
        const waiting = this.#onSent;
        this.#onSent = [];
        for (const wake of waiting) wake();
      },
    };
    this.#log.push(entry);
    return entry;
  }

  /**
   * Only the first caller in line waits here, and those behind it would wait for the same
   * `sent()`: one that gives up meanwhile is answered by `take` and leaves at the next one.
   */
  #nextSent(): Promise<void> {
    return new Promise((resolve) => this.#onSent.push(resolve));
  }

  async #acquire(signal: AbortSignal): Promise<RateSlot> {
    let now = this.clock();
    for (;;) {
      signal.throwIfAborted();
      const ms = this.#wait(now);
      if (ms === 0) return this.#grant(now);
      await (ms === undefined ? this.#nextSent() : this.sleep(ms, signal));
      // After a sleep of `ms`, at least `ms` has passed, whatever the clock says.
      now = Math.max(this.clock(), now + (ms ?? 0));
    }
  }
}
