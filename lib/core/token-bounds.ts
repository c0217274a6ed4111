// How large a token count can be and still be one. The largest context
// window is a few million tokens, so no request reads or writes a billion;
// a figure past that (`1e308`, or a counter gone wrong) is not a count, and
// summed or divided it would make `Infinity` and `NaN` of a report's
// percentages and totals. Such a figure is diagnosed and left out.

/** One request's tokens of one kind: at most a thousand 1M-token windows. */
export const MAX_REQUEST_TOKENS = 1e9;

/** A cumulative figure over a whole session (Claude Code's `modelUsage`): a million such requests. */
export const MAX_SESSION_TOKENS = 1e15;

/** A session's reported cost, in USD. */
export const MAX_SESSION_USD = 1e9;

/** `x` when it is a count no greater than `max`, else undefined. */
export function plausibleCount(x: unknown, max: number): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= max ? x : undefined;
}
