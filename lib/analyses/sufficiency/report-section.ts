// The report's `sufficiency` section: per-session counts (kept), totals
// (derived), and every call in the order made.
import { z } from 'zod';
import { BUCKETS } from './reaction.js';
import type { SufficiencyCall, SufficiencyCounts } from './summary.js';
import type { AnalysisItem } from '../../core/items.js';
import type { MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import type { SufficiencyFindingData, SufficiencyItem } from './items.js';
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
  run: z.string().optional(),
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

/**
 * Collects calls per session. A session's calls wait for its summary: only
 * then is it known not to be a second copy of a session already reported.
 */
export class SufficiencyCollector implements SectionCollector<SufficiencySection> {
  readonly #probe: string;
  readonly #keep: boolean;
  #buffer: SufficiencyFindingData[] = [];
  #calls: SufficiencyCall[] = [];
  #bySession: ({ session: string } & SufficiencyCounts)[] = [];

  constructor(probe: string, keep: boolean) {
    this.#probe = probe;
    this.#keep = keep;
  }

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as SufficiencyItem;
    if (it.kind === 'finding') {
      if (this.#keep) this.#buffer.push(it.data);
      return;
    }
    if (!session.duplicate) {
      this.#buffer.sort((a, b) => a.seq - b.seq);
      for (const b of this.#buffer) this.#calls.push(b.call);
      this.#bySession.push({ session: it.session, ...copyCounts(it.data.counts) });
    }
    this.#buffer = [];
  }

  forget(session: string): void {
    this.#calls = this.#calls.filter((c) => c.session !== session);
    this.#bySession = this.#bySession.filter((b) => b.session !== session);
  }

  build(): SufficiencySection {
    const bySession = this.#bySession.map((x) => ({ ...x, buckets: { ...x.buckets } }));
    return { probe: this.#probe, ...totals(bySession), calls: [...this.#calls], bySession };
  }
}

/** Sessions of `b` already in `a` count once, as a's copy. Sections made with different probes do not merge. */
export function mergeSufficiency(a: SufficiencySection | undefined, b: SufficiencySection | undefined, env: MergeEnv): SufficiencySection {
  if (a && b && a.probe !== b.probe) throw new Error(`cannot merge sufficiency made with different probes (${a.probe} and ${b.probe})`);
  const keep = (s: string): boolean => !env.inFirst(s);
  const bySession = [...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((x) => keep(x.session))];
  return { probe: (a ?? b)!.probe, ...totals(bySession), calls: [...(a?.calls ?? []), ...(b?.calls ?? []).filter((c) => keep(c.session))], bySession };
}
