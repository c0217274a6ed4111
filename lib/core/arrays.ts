// Arrays as long as the input makes them (runs, flags, edges, a command's
// words): `push(...xs)` and `Math.max(...xs)` pass every item as an argument,
// and somewhere past 100,000 the call overflows the stack. These loop.

/** Appends each item to `into`; returns it. */
export function append<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}

/** The largest number, or `empty` when there is none. */
export function maxOf(xs: Iterable<number>, empty = -Infinity): number {
  let max = empty;
  let any = false;
  for (const x of xs) {
    if (!any || x > max) max = x;
    any = true;
  }
  return max;
}

/** `list` stably sorted by `rank` of each element's key: what keeps a run's own order within each rank. */
export function byRank<T>(list: readonly T[], keyOf: (x: T) => string, rank: (key: string) => number): T[] {
  return list
    .map((x, i) => ({ x, i, r: rank(keyOf(x)) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((e) => e.x);
}
