// A report's keys are its envelope's and its analyses' sections. A key that
// is neither is the section of an analysis the reader was not given —
// another version's, or one a list of analyses left out: merging or
// comparing the report without it would drop that section and still pass,
// so it is refused instead, by name.
import type { Analysis } from '../analyses/types.js';
import { printable } from '../core/escape.js';
import { reportSchemaFor } from './schema.js';

const ENVELOPE: ReadonlySet<string> = new Set(Object.keys(reportSchemaFor([]).shape));

/** The keys of `report` that are neither the envelope's nor a section of `analyses`, in the report's order. */
export function unownedSections(report: object, analyses: readonly Analysis[]): string[] {
  const owned = new Set(analyses.map((a) => a.key));
  return Object.keys(report).filter((k) => !ENVELOPE.has(k) && !owned.has(k));
}

/** `section 'x'`, `sections 'x' and 'y'`: the keys as a message names them (they come from a file). */
export function sectionsNamed(keys: readonly string[]): string {
  const named = keys.map((k) => `'${printable(k)}'`);
  return `section${keys.length === 1 ? '' : 's'} ${named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)!}` : named[0]!}`;
}
