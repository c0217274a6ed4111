// Record types nobody told us about, counted by name — up to a cap, since a
// transcript may hold any number of distinct ones. Which types keep a name
// depends only on the set of types met (the UNKNOWN_TYPES_CAP first in
// code-unit order), not on their order or on how inputs were grouped, so two
// capped counts merge exactly and associatively.
import { byCodeUnit } from '../core/canonical-json.js';

/** Distinct unknown record types counted by name; the rest are counted under OTHER_UNKNOWN_TYPES. */
export const UNKNOWN_TYPES_CAP = 100;
/** The key of the unknown types past the cap (a type of that very name is counted there too). */
export const OTHER_UNKNOWN_TYPES = '(other types)';

/** The report's record: sorted by name, built from own entries (`__proto__` stays a key). */
function sortedRecord(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => byCodeUnit(a, b)));
}

/** Counts as the types come: memory stays at the cap, and each type costs at most one pass over it. */
export class UnknownTypeCounts {
  readonly #named = new Map<string, number>();
  #largest = '';
  #other = 0;

  add(type: string, n = 1): void {
    const named = this.#named;
    const seen = named.get(type);
    if (seen !== undefined) named.set(type, seen + n);
    else if (type === OTHER_UNKNOWN_TYPES || (named.size === UNKNOWN_TYPES_CAP && type > this.#largest)) this.#other += n;
    else {
      if (named.size === UNKNOWN_TYPES_CAP) {
        // The largest kept type goes to the other count for good: the largest only ever gets smaller.
        this.#other += named.get(this.#largest)!;
        named.delete(this.#largest);
        this.#largest = '';
        for (const k of named.keys()) if (k > this.#largest) this.#largest = k;
      }
      named.set(type, n);
      if (type > this.#largest) this.#largest = type;
    }
  }

  toRecord(): Record<string, number> {
    const all = new Map(this.#named);
    if (this.#other > 0) all.set(OTHER_UNKNOWN_TYPES, this.#other);
    return sortedRecord(all);
  }
}

/** Two reports' counts as one report's: the same cap, the same names kept. */
export function mergeUnknownTypes(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const counts = new UnknownTypeCounts();
  for (const src of [a, b]) for (const [k, n] of Object.entries(src)) counts.add(k, n);
  return counts.toRecord();
}

/** Files named per unknown type in the message that says they were skipped: where to look, not a list. */
export const FILES_PER_UNKNOWN_TYPE = 3;

/**
 * The first few files each unknown type was met in, for the stderr line
 * that says they were skipped (the report counts types, not files). Bounded:
 * FILES_PER_UNKNOWN_TYPE names per type, UNKNOWN_TYPES_CAP types — a type
 * first met past the cap is still counted, its files are not named.
 */
export class UnknownTypeFiles {
  readonly #files = new Map<string, { names: string[]; more: boolean }>();

  add(type: string, file: string): void {
    let f = this.#files.get(type);
    if (f === undefined) {
      if (this.#files.size >= UNKNOWN_TYPES_CAP) return;
      f = { names: [], more: false };
      this.#files.set(type, f);
    }
    if (f.names.includes(file)) return;
    if (f.names.length < FILES_PER_UNKNOWN_TYPE) f.names.push(file);
    else f.more = true;
  }

  /** The files `type` was met in (the first few; `more` when there were others). */
  of(type: string): { readonly names: readonly string[]; readonly more: boolean } | undefined {
    return this.#files.get(type);
  }
}
