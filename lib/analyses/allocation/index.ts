// Allocation efficiency (CodeGraph's CG-9), per thread: what share of the
// characters the probe responses returned belongs to files the final answer
// cites. sections.ts cuts a response, citations.ts reads an answer,
// attribution.ts credits files, logic.ts feeds each thread its own
// responses and answer; docs/allocation.md states the rules.
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis } from '../types.js';
import type { Registration } from '../registration.js';
import { AllocationReader } from './logic.js';
import { ALLOCATION } from './items.js';
import type { AllocationSummary } from './items.js';
import { allocationOptionsFrom } from './options.js';
import type { AllocationOptions } from './options.js';
import { ALLOCATION_FLAGS, readAllocationFlags } from './flags.js';
import type { AllocationFlags } from './flags.js';
import { AllocationCollector, mergeAllocation } from './collect.js';
import { renderAllocationText } from './render-text.js';
import { allocationMarkdown } from './render-markdown.js';
import { allocationSectionSchema } from './report-section.js';
import type { AllocationSection } from './report-section.js';
import { allocationFigures } from './figures.js';
import { byRank } from '../../core/arrays.js';

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

export const allocationAnalysis: Analysis<AllocationOptions, AllocationSection, 'allocation', 'allocation'> = {
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
  merge: mergeAllocation,
  reorder: (a, rank) => ({ ...a, bySession: byRank(a.bySession, (s) => s.session, rank) }),
  render: {
    text: renderAllocationText,
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

export const allocationRegistration = {
  analysis: allocationAnalysis,
  runs: 'when named',
  page: 'allocation.md',
  flags: ALLOCATION_FLAGS,
  readFlags: readAllocationFlags,
  options: allocationOptionsFrom,
} satisfies Registration<AllocationOptions, AllocationFlags, 'allocation'>;
