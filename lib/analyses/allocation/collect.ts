// The allocation section, collected from each session's summary (a session
// read twice counts its first copy; one whose threads weighed nothing is
// left out), and merged: sessions of both reports, the first's copy of one
// in both.
import type { AnalysisItem } from '../../core/items.js';
import type { MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import type { AllocationSummary } from './items.js';
import type { AllocationSection } from './report-section.js';

export class AllocationCollector implements SectionCollector<AllocationSection> {
  readonly #probe: string;
  #bySession: AllocationSection['bySession'] = [];

  constructor(probe: string) {
    this.#probe = probe;
  }

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as AllocationSummary;
    if (it.kind === 'summary' && !session.duplicate && it.data.threads.length > 0) this.#bySession.push({ session: it.session, threads: it.data.threads });
  }

  forget(session: string): void {
    this.#bySession = this.#bySession.filter((s) => s.session !== session);
  }

  build(): AllocationSection {
    return { probe: this.#probe, bySession: [...this.#bySession] };
  }
}

export function mergeAllocation(a: AllocationSection | undefined, b: AllocationSection | undefined, env: MergeEnv): AllocationSection {
  if (a && b && a.probe !== b.probe) throw new Error(`reports made with different probe tools (${a.probe} and ${b.probe}) do not merge`);
  return { probe: a?.probe ?? b?.probe ?? '', bySession: [...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((s) => !env.inFirst(s.session))] };
}
