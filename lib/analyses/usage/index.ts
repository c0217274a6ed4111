// Token usage per session and thread: each API message counted once, with
// its last usage. Its report section keeps the name `tokens`.
import { z } from 'zod';
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis, MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import { UsageCounter } from './counter.js';
import { addReported, addTokenCounts, emptyTokenCounts, USAGE } from './token-counts.js';
import type { UsageSummary } from './token-counts.js';

const tokenCounts = z.object({
  messages: z.number().int().nonnegative(),
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheCreation: z.number().nonnegative(),
});

/** What Claude Code's results report: cost in USD and tokens per model, cumulative over a session and its subagents. */
const reported = z.object({
  costUsd: z.number().nonnegative(),
  byModel: z.record(z.string(), z.object({ input: z.number().nonnegative(), output: z.number().nonnegative(), cacheRead: z.number().nonnegative(), cacheCreation: z.number().nonnegative(), costUsd: z.number().nonnegative() })),
});

/**
 * Token totals, each message counted once with its last usage; per session
 * and thread. `reported`: what the sessions' last results said (stream-json),
 * summed over the sessions that have one.
 */
export const tokensSectionSchema = z.object({
  total: tokenCounts,
  reported: reported.optional(),
  bySession: z.array(z.object({ session: z.string(), total: tokenCounts, byThread: z.record(z.string(), tokenCounts), reported: reported.optional() })),
});

export type TokensSection = z.infer<typeof tokensSectionSchema>;

function section(bySession: TokensSection['bySession']): TokensSection {
  const total = bySession.map((t) => t.total).reduce(addTokenCounts, emptyTokenCounts());
  const sums = bySession.flatMap((t) => (t.reported ? [t.reported] : []));
  return sums.length ? { total, reported: sums.reduce(addReported, { costUsd: 0, byModel: {} }), bySession } : { total, bySession };
}

class UsageCollector implements SectionCollector<TokensSection> {
  #bySession: TokensSection['bySession'] = [];

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as UsageSummary;
    if (it.kind === 'summary' && !session.duplicate) this.#bySession.push({ session: it.session, total: it.data.total, byThread: it.data.byThread, ...(it.data.reported ? { reported: it.data.reported } : {}) });
  }

  forget(session: string): void {
    this.#bySession = this.#bySession.filter((t) => t.session !== session);
  }

  build(): TokensSection {
    return section([...this.#bySession]);
  }
}

export const usageAnalysis: Analysis<Record<string, never>, TokensSection, 'tokens'> = {
  name: USAGE,
  key: 'tokens',
  logic: () => new UsageCounter(),
  resultText: () => () => false,
  section: tokensSectionSchema,
  collector: () => new UsageCollector(),
  merge: (a, b, env: MergeEnv) => section([...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((t) => !env.inFirst(t.session))]),
  render: {},
};
