// Sufficiency's mergeable result: counts per session, nothing derived.
// Ratios and percentages are computed only when rendering.
import type { Bucket } from './reaction.js';
import { BUCKETS } from './reaction.js';

export const NOT_BUCKETED_REASONS = ['is_error', 'unanswered', 'unjudged', 'pending', 'persisted_output_missing'] as const;
export type NotBucketedReason = (typeof NOT_BUCKETED_REASONS)[number];

/** One probe call as reported: part of the report's public contract. */
export interface SufficiencyCall {
  id: string;
  thread: string;
  session: string;
  query: string;
  /** Paths whose source the response carried, in order, duplicates kept. */
  returned: string[];
  /** Length of the response text (0 when there was none). */
  chars: number;
  bucket: Bucket | null;
  next: string | null;
  named?: boolean;
  reason?: NotBucketedReason;
  /** The run it was made in, for sources with runs (traces.json, audit logs, a trace of OpenTelemetry). */
  run?: string;
}

export interface SufficiencyCounts {
  /** Bucketed calls. */
  answered: number;
  /** Errored (`is_error`) or never answered: counted, not bucketed. */
  errors: number;
  /** Reaction was a delegation to a subagent absent from the input, or the response was persisted to a file that is missing. */
  unjudged: number;
  /** Still waiting for a reaction when a followed stream stopped. */
  pending: number;
  /** (answered probe, file access written after it in the same message) pairs: not reactions. */
  concurrent: number;
  buckets: Record<Bucket, number>;
}

export function emptyCounts(): SufficiencyCounts {
  return { answered: 0, errors: 0, unjudged: 0, pending: 0, concurrent: 0, buckets: Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<Bucket, number> };
}

export function addCounts(a: SufficiencyCounts, b: SufficiencyCounts): SufficiencyCounts {
  const out = emptyCounts();
  out.answered = a.answered + b.answered;
  out.errors = a.errors + b.errors;
  out.unjudged = a.unjudged + b.unjudged;
  out.pending = a.pending + b.pending;
  out.concurrent = a.concurrent + b.concurrent;
  for (const k of BUCKETS) out.buckets[k] = a.buckets[k] + b.buckets[k];
  return out;
}

/** Records one decided call in the counts, with its `concurrent` pairs. */
export function countCall(counts: SufficiencyCounts, call: SufficiencyCall, concurrent: number): void {
  if (call.bucket !== null) {
    counts.answered++;
    counts.buckets[call.bucket]++;
  } else if (call.reason === 'unjudged' || call.reason === 'persisted_output_missing') counts.unjudged++;
  else if (call.reason === 'pending') counts.pending++;
  else counts.errors++;
  counts.concurrent += concurrent;
}
