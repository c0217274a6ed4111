// Values from a transcript nest as deep as their writer likes. JSON.parse and
// stream-json's assembler build them without recursion, but JSON.stringify,
// String() of an array and every recursive walk overflow the stack on a value
// a few thousand levels deep (a 10 KB line is enough), which would end the
// whole run with no report. So each record is bounded where it enters the
// pipeline: nothing deeper than MAX_VALUE_DEPTH levels survives it, and
// everything after may recurse freely.

/**
 * Arrays and objects a record may nest (the record itself is level 1).
 * Claude Code's deepest real values (a tool_result block inside a message
 * inside a line) sit near level 8; 100 leaves room for any tool's own
 * structure and stays far from the stack's limit.
 */
export const MAX_VALUE_DEPTH = 100;

/**
 * Replaces, in place, every array or object below level `limit` with null;
 * true when it replaced one. Iterative, linear in the number of values, and
 * stops descending at the limit, so a cyclic object (a library caller's)
 * ends too.
 */
export function pruneDeep(root: unknown, limit = MAX_VALUE_DEPTH): boolean {
  if (typeof root !== 'object' || root === null) return false;
  const containers: Array<Record<string, unknown> | unknown[]> = [root as Record<string, unknown>];
  const depths: number[] = [1];
  let pruned = false;
  while (containers.length > 0) {
    const c = containers.pop()!;
    const depth = depths.pop()!;
    const keys = Array.isArray(c) ? null : Object.keys(c);
    const n = keys === null ? (c as unknown[]).length : keys.length;
    for (let i = 0; i < n; i++) {
      const key = keys === null ? i : keys[i]!;
      const v = (c as Record<string | number, unknown>)[key];
      if (typeof v !== 'object' || v === null) continue;
      if (depth >= limit) {
        (c as Record<string | number, unknown>)[key] = null;
        pruned = true;
      } else {
        containers.push(v as Record<string, unknown>);
        depths.push(depth + 1);
      }
    }
  }
  return pruned;
}

/**
 * A value's text: a string as it is, a number or boolean written out, an
 * object or array as JSON, nothing as ''. Never calls the value's own
 * `toString` (a key of that name in the input is data, not a method).
 */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'object') return JSON.stringify(v) ?? '';
  return '';
}
