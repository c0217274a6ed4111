// The report's `sufficiency` section: per-session counts (kept), totals
// (derived), and every call in the order made.
import { z } from 'zod';
import { BUCKETS } from './reaction.js';
import type { SufficiencyCounts } from './summary.js';
import { addCounts, emptyCounts, NOT_BUCKETED_REASONS } from './summary.js';

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
});

export const sufficiencySectionSchema = z.object({
  probe: z.string(),
  ...countsShape,
  calls: z.array(sufficiencyCallSchema),
  bySession: z.array(z.object({ session: z.string(), ...countsShape })),
});

export type SufficiencySection = z.infer<typeof sufficiencySectionSchema>;

export function copyCounts(x: SufficiencyCounts): SufficiencyCounts {
  return { answered: x.answered, errors: x.errors, unjudged: x.unjudged, pending: x.pending, concurrent: x.concurrent, buckets: { ...x.buckets } };
}

export function totals(bySession: ReadonlyArray<SufficiencyCounts>): SufficiencyCounts {
  return bySession.reduce<SufficiencyCounts>((acc, c) => addCounts(acc, c), emptyCounts());
}
