/** The median of some numbers; `NaN` for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The `p`-th percentile (0–100) of ascending samples, by the nearest-rank method, so the
 * result is always a measured value.
 */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const count = sortedAscending.length;
  if (count === 0) return Number.NaN;
  const rank = Math.min(count, Math.max(1, Math.ceil((p / 100) * count)));
  return sortedAscending[rank - 1] as number;
}
