// The report's `sufficiency` section: per probe tool, per-session counts
// (kept), totals (derived), and every call in the order made.
import { z } from 'zod';
import { BUCKETS } from './reaction.js';
import type { SufficiencyCall, SufficiencyCounts } from './summary.js';
import { PROFILE_NAMES } from './profiles.js';
import type { ProfileName } from './profiles.js';
import { addCounts, emptyCounts, NOT_BUCKETED_REASONS } from './summary.js';
import type { SpilledList } from '../../core/spilled-list.js';

const count = z.number().int().nonnegative();

export const countsShape = {
  answered: count,
  errors: count,
  unjudged: count,
  pending: count,
  concurrent: count,
  buckets: z.object(Object.fromEntries(BUCKETS.map((b) => [b, count])) as Record<(typeof BUCKETS)[number], typeof count>),
};

export const sufficiencyCallSchema = z.object({
  id: z.string(),
  thread: z.string(),
  session: z.string(),
  query: z.string(),
  returned: z.array(z.string()),
  chars: count,
  bucket: z.enum(BUCKETS).nullable(),
  next: z.string().nullable(),
  named: z.boolean().optional(),
  reason: z.enum(NOT_BUCKETED_REASONS).optional(),
  run: z.string().optional(),
});

/** One probe tool's calls and counts. */
export const probeSectionSchema = z.object({
  probe: z.string(),
  profile: z.enum(PROFILE_NAMES),
  ...countsShape,
  calls: z.array(sufficiencyCallSchema),
  bySession: z.array(z.object({ session: z.string(), ...countsShape })),
});

/**
 * Its calls: an array, or, when the report's lists are spilled (the CLI's
 * reporters), a SpilledList read from disk as it is iterated. Either way
 * they are iterated, never indexed, and written to JSON as an array.
 */
export type CallList = readonly SufficiencyCall[] | SpilledList<SufficiencyCall>;

export type ProbeSection = Omit<z.infer<typeof probeSectionSchema>, 'calls'> & { calls: CallList };

/**
 * One probe (`--probe`, or the config's `probe`): its section as it always
 * was. Several (the config's `probes`, or every built-in profile when none
 * is named): one per probe tool the input called, in the order configured.
 */
export const sufficiencySectionSchema = z.union([probeSectionSchema, z.object({ tools: z.array(z.string()), probes: z.array(probeSectionSchema) })]);

export type SufficiencySection = ProbeSection | { tools: string[]; probes: ProbeSection[] };

/** Every probe section of a sufficiency section, whichever its shape. */
export function probeSections(s: SufficiencySection): readonly ProbeSection[] {
  return 'probes' in s ? s.probes : [s];
}

export function copyCounts(x: SufficiencyCounts): SufficiencyCounts {
  return { answered: x.answered, errors: x.errors, unjudged: x.unjudged, pending: x.pending, concurrent: x.concurrent, buckets: { ...x.buckets } };
}

export function totals(bySession: ReadonlyArray<SufficiencyCounts>): SufficiencyCounts {
  return bySession.reduce<SufficiencyCounts>((acc, c) => addCounts(acc, c), emptyCounts());
}
