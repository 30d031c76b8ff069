/**
 * Hooks for deterministic tests of code built on the clients: the clock, the waits and the
 * backoff jitter. Not part of any client's options type: a test that needs them says so with
 * `withTestHooks`.
 */
export interface TestHooks {
  /** The clock, in ms since the epoch; `Date.now` by default. */
  clock?: (() => number) | undefined;
  /** Waits between attempts and for the rate limiter; must reject when the signal aborts. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** A number in [0, 1) for the backoff jitter; `Math.random` by default. */
  random?: (() => number) | undefined;
}

/**
 * `options` with the test hooks: what a client's factory takes, typed as the options it was.
 */
export function withTestHooks<T extends object>(options: T, hooks: TestHooks): T {
  return { ...options, ...hooks };
}
