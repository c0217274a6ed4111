// Token counts as Claude Code writes them, read defensively.
import { excerpt } from '../../core/records.js';
import { MAX_REQUEST_TOKENS, plausibleCount } from '../../core/token-bounds.js';

type Obj = Record<string, unknown>;

/**
 * A token count: absent is 0. A negative, non-finite (`1e999` parses as
 * Infinity) or implausibly large number (past `max`, lib/core/token-bounds.ts),
 * or a value that is no number, is named in `bad` and read as 0, so totals
 * stay finite and every ratio of them a number.
 */
export function tokenCount(o: Obj, key: string, bad: string[], max = MAX_REQUEST_TOKENS): number {
  const x = o[key];
  if (x === undefined || x === null) return 0;
  const n = plausibleCount(x, max);
  if (n !== undefined) return n;
  const shown = typeof x === 'string' ? excerpt(x, 40) : typeof x === 'object' ? (Array.isArray(x) ? 'an array' : 'an object') : String(x);
  bad.push(`${key} ${shown}`);
  return 0;
}
