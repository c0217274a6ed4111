// Percentiles by the nearest-rank method: the p-th percentile of n values is
// the value at rank ⌈p/100 · n⌉ in ascending order — the smallest value with
// at least p% of the values at or below it. Every percentile is then a value
// some run actually had, so a reader can check it by counting; no
// interpolation invents a step count nobody took.

/** The rank (1-based) of the p-th percentile of n values. */
export function nearestRankIndex(p: number, n: number): number {
  if (n <= 0) throw new RangeError('a percentile of no values');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile ${p} is not in (0, 100]`);
  // Rounded first: 0.9 · 30 is 27.000000000000004 in floating point, and its rank is 27, not 28.
  return Math.max(1, Math.ceil(Math.round(((p * n) / 100) * 1e9) / 1e9));
}

/** The p-th percentile of values sorted ascending. */
export function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[nearestRankIndex(p, sorted.length) - 1]!;
}

/** Numbers sorted ascending, as a new array. */
export function ascending(values: Iterable<number>): number[] {
  return Array.from(values).sort((x, y) => x - y);
}
