// Token counts as Claude Code writes them, read defensively.
import { excerpt } from '../../core/records.js';

type Obj = Record<string, unknown>;

/**
 * A token count: absent is 0. A negative or non-finite number (`1e999`
 * parses as Infinity) or a value that is no number is named in `bad` and
 * read as 0, so totals stay finite and non-negative.
 */
export function tokenCount(o: Obj, key: string, bad: string[]): number {
  const x = o[key];
  if (x === undefined || x === null) return 0;
  if (typeof x === 'number' && Number.isFinite(x) && x >= 0) return x;
  const shown = typeof x === 'string' ? excerpt(x, 40) : typeof x === 'object' ? (Array.isArray(x) ? 'an array' : 'an object') : String(x);
  bad.push(`${key} ${shown}`);
  return 0;
}
