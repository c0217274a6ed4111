// The keys a config schema knows at a key path, read from the zod schema
// itself (so no second list can drift from it): what "did you mean" picks
// from when a config names a key that is not there.
import type { z } from 'zod';
import { namedRecordValue } from '../core/named-record.js';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly getter?: () => z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers that check a value by the schema inside them. */
const WRAPPERS: ReadonlySet<string> = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success']);

/** The schemas that check a value directly: through wrappers, pipes, lazies, unions and intersections. */
function checkers(s: z.ZodType, out: z.ZodType[] = [], depth = 0): z.ZodType[] {
  if (depth > 32) return out;
  const d = defOf(s);
  if (WRAPPERS.has(d.type) && d.innerType) return checkers(d.innerType, out, depth + 1);
  if (d.type === 'pipe' && d.in) {
    // A named record is a pipe from a mapping check: its values are what count.
    if (namedRecordValue(s) === undefined) return checkers(d.in, out, depth + 1);
  } else if (d.type === 'lazy' && d.getter) return checkers(d.getter(), out, depth + 1);
  else if (d.type === 'union' && d.options) {
    for (const o of d.options) checkers(o, out, depth + 1);
    return out;
  } else if (d.type === 'intersection' && d.left && d.right) {
    checkers(d.left, out, depth + 1);
    return checkers(d.right, out, depth + 1);
  }
  out.push(s);
  return out;
}

/** The schemas that check the value at `key` of a value `s` checks. */
function child(s: z.ZodType, key: string | number): z.ZodType[] {
  const d = defOf(s);
  const named = namedRecordValue(s);
  if (named) return [named];
  if (d.type === 'object' && d.shape && typeof key === 'string') return Object.hasOwn(d.shape, key) ? [d.shape[key]!] : [];
  if (d.type === 'record' && d.valueType) return [d.valueType];
  if (d.type === 'array' && d.element) return [d.element];
  if (d.type === 'tuple' && typeof key === 'number') {
    const item = d.items?.[key] ?? d.rest ?? undefined;
    return item ? [item] : [];
  }
  return [];
}

/** The keys an object at `path` may have, by the schema `root` (none when the path leads to no object). */
export function knownKeysAt(root: z.ZodType, path: readonly (string | number)[]): string[] {
  let at = checkers(root);
  for (const key of path) at = at.flatMap((s) => child(s, key)).flatMap((s) => checkers(s));
  const keys = new Set<string>();
  for (const s of at) {
    const d = defOf(s);
    if (d.type === 'object' && d.shape) for (const k of Object.keys(d.shape)) keys.add(k);
  }
  return [...keys];
}
