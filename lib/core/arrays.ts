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
