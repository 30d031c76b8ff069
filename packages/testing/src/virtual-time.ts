/** A clock and a sleep that never wait for real time, for deterministic tests. */
export interface VirtualTime {
  /** The virtual time in ms since the epoch. */
  now(): number;
  /**
   * Resolves once virtual time reaches `now() + ms`; rejects with the signal's reason if it
   * aborts first. Sleepers wake in order of their wake time, one per macrotask, and time jumps
   * straight to each wake time.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Moves time forward, e.g. to make a token reach its refresh margin. */
  advance(ms: number): void;
  /** Every duration passed to `sleep`, in call order. */
  readonly sleeps: readonly number[];
}

interface Sleeper {
  at: number;
  wake: () => void;
}

/**
 * Creates virtual time starting at `start` (ms since the epoch).
 */
export function createVirtualTime(start = Date.parse('2026-11-22T10:00:00Z')): VirtualTime {
  let current = start;
  const sleepers: Sleeper[] = [];
  const sleeps: number[] = [];
  let scheduled = false;

  const wakeNext = () => {
    scheduled = false;
    sleepers.sort((a, b) => a.at - b.at);
    const next = sleepers.shift();
    if (next === undefined) return;
    current = Math.max(current, next.at);
    next.wake();
    if (sleepers.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(wakeNext);
  };

  return {
    now: () => current,
    sleeps,
    advance(ms) {
      current += ms;
    },
    sleep(ms, signal) {
      sleeps.push(ms);
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return new Promise<void>((resolve, reject) => {
        const sleeper: Sleeper = {
          at: current + ms,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          reject(signal?.reason as Error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
        schedule();
      });
    },
  };
}
