// Allocation efficiency (CodeGraph's CG-9), per thread: what share of the
// characters the probe responses returned belongs to files the final answer
// cites. sections.ts cuts a response, citations.ts reads an answer,
// attribution.ts credits files, reader.ts feeds each thread its own
// responses and answer; docs/allocation.md states the rules.
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis, MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import { printable } from '../../core/escape.js';
import { ALLOCATION, AllocationReader } from './reader.js';
import type { AllocationOptions, AllocationSummary, ThreadAllocation } from './reader.js';
import { allocationBlock, noAllocationLine } from './render-text.js';
import { allocationMarkdown } from './render-markdown.js';
import { allocationSectionSchema } from './report-section.js';
import type { AllocationSection } from './report-section.js';
import { allocationFigures } from './figures.js';
import { byRank } from '../../core/arrays.js';

export { allocationSectionSchema } from './report-section.js';
export type { AllocationSection } from './report-section.js';

export type { AllocationOptions } from './reader.js';

class AllocationCollector implements SectionCollector<AllocationSection> {
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

function renderText(s: AllocationSection): string {
  if (s.bySession.length === 0) return noAllocationLine(s.probe);
  const blocks: string[] = [];
  for (const entry of s.bySession) {
    if (s.bySession.length > 1) blocks.push(`  session ${printable(entry.session)}:\n`);
    for (const t of entry.threads) blocks.push(allocationBlock(t as ThreadAllocation));
  }
  return blocks.join('');
}

/** Characters returned and used over every thread of every session. */
function totals(s: AllocationSection): { calls: number; envelope: number; used: number } {
  let calls = 0;
  let envelope = 0;
  let used = 0;
  for (const e of s.bySession) {
    for (const t of e.threads) {
      calls += t.calls.length;
      envelope += t.envelope;
      used += t.used;
    }
  }
  return { calls, envelope, used };
}

export const allocationAnalysis: Analysis<AllocationOptions, AllocationSection, 'allocation'> = {
  name: ALLOCATION,
  key: 'allocation',
  logic: (o) => new AllocationReader(o),
  // It reads the probe's responses, nothing else.
  resultText: (o) => {
    const probe = new RegExp(o.probe);
    return (tool) => probe.test(tool);
  },
  section: allocationSectionSchema,
  collector: (o) => new AllocationCollector(o.probe),
  runFigures: allocationFigures,
  merge: (a, b, env: MergeEnv) => {
    if (a && b && a.probe !== b.probe) throw new Error(`reports made with different probe tools (${a.probe} and ${b.probe}) do not merge`);
    return { probe: a?.probe ?? b?.probe ?? '', bySession: [...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((s) => !env.inFirst(s.session))] };
  },
  reorder: (a, rank) => ({ ...a, bySession: byRank(a.bySession, (s) => s.session, rank) }),
  render: {
    text: renderText,
    markdown: (s) => ({ body: allocationMarkdown(s) }),
    // Each session's threads as it ends; the summary totals them.
    ndjsonItem: (item: AnalysisItem) => {
      const it = item as AllocationSummary;
      return it.kind === 'summary' && it.data.threads.length > 0 ? { type: 'allocation', session: it.session, threads: it.data.threads } : undefined;
    },
    ndjsonSummary: (s) => {
      const t = totals(s);
      return { probe: s.probe, sessions: s.bySession.length, ...t, efficiency: t.envelope > 0 ? t.used / t.envelope : null };
    },
  },
};
