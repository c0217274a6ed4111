// JSON meant to be committed and reviewed: object keys sorted at every depth,
// two-space indent, a final newline — the same value always gives the same
// bytes, so a diff shows only what changed. Characters a terminal would act
// on are written as \u escapes (the same JSON).
import { jsonPrintable } from './escape.js';

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  // fromEntries defines own properties: a key `__proto__` stays a key.
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}

export function canonicalJson(value: unknown): string {
  return `${jsonPrintable(JSON.stringify(sortKeys(value), null, 2))}\n`;
}

/** Code-unit order: the same on every machine and locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
