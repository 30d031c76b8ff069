/**
 * At most `perSecond` calls in any window of one second (a sliding window over the times of the
 * last admitted calls, kept in a ring).
 */
export class SlidingWindowLimit {
  readonly #times: Float64Array;
  #next = 0;

  constructor(readonly perSecond: number) {
    this.#times = new Float64Array(perSecond).fill(Number.NEGATIVE_INFINITY);
  }

  /** Admits a call at `now` (ms) and returns 0, or returns the ms until a call is admitted. */
  admit(now: number): number {
    // The oldest of the last `perSecond` admitted calls sits where the next one is written.
    const oldest = this.#times[this.#next]!;
    const wait = oldest + 1000 - now;
    if (wait > 0) return wait;
    this.#times[this.#next] = now;
    this.#next = (this.#next + 1) % this.#times.length;
    return 0;
  }
}
