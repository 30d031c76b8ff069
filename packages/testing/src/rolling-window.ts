/** Arrivals per client id, and the most of them that fell in any rolling window. */
export interface RollingWindowCounter {
  /** The window length in ms (1000 by default). */
  readonly windowMs: number;
  /** Records one arrival of `clientId` at `atMs` (any clock, ms). */
  record(clientId: string, atMs: number): void;
  /**
   * A strict server's verdict on an arrival at `atMs` (not before the last one recorded):
   * records it and returns true when fewer than `limit` arrivals of `clientId` fall in the
   * window ending there; returns false (a 429) and records nothing otherwise.
   */
  admit(clientId: string, atMs: number, limit: number): boolean;
  /** The client ids seen so far. */
  clients(): string[];
  /** Every arrival time of one client, in order. */
  arrivals(clientId: string): readonly number[];
  /**
   * The largest number of arrivals of `clientId` within any window `[t, t + windowMs)`, for any
   * `t`: the number a server enforcing "N calls per second" in a sliding second would compare.
   */
  maxInAnyWindow(clientId: string): number;
  /** Forgets every arrival. */
  reset(): void;
}

/**
 * Counts arrivals per client id in rolling windows, so a test can assert that a client never
 * sent more than a tier allows in any second, whatever its bursts looked like.
 */
export function createRollingWindowCounter(windowMs = 1000): RollingWindowCounter {
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError('windowMs must be a positive number of ms');
  }
  const times = new Map<string, number[]>();
  const record = (clientId: string, atMs: number) => {
    const list = times.get(clientId) ?? [];
    list.push(atMs);
    // Arrivals come in order on one clock; keep them sorted if a caller mixes sources.
    if (list.length > 1 && list[list.length - 2]! > atMs) list.sort((a, b) => a - b);
    times.set(clientId, list);
  };
  return {
    windowMs,
    record,
    admit(clientId, atMs, limit) {
      const list = times.get(clientId) ?? [];
      let within = 0;
      for (let i = list.length - 1; i >= 0 && atMs - list[i]! < windowMs; i--) within++;
      if (within >= limit) return false;
      record(clientId, atMs);
      return true;
    },
    clients: () => [...times.keys()],
    arrivals: (clientId) => [...(times.get(clientId) ?? [])],
    maxInAnyWindow(clientId) {
      const list = times.get(clientId) ?? [];
      let most = 0;
      let first = 0;
      for (let last = 0; last < list.length; last++) {
        while (list[last]! - list[first]! >= windowMs) first++;
        most = Math.max(most, last - first + 1);
      }
      return most;
    },
    reset: () => times.clear(),
  };
}
