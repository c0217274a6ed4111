// Token usage per session and thread: each API message counted once, with
// its last usage. Its report section keeps the name `tokens`.
import { z } from 'zod';
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis, MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import { UsageCounter } from './counter.js';
import { addTokenCounts, emptyTokenCounts, USAGE } from './token-counts.js';
import type { UsageSummary } from './token-counts.js';

const tokenCounts = z.object({
  messages: z.number().int().nonnegative(),
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheCreation: z.number().nonnegative(),
});

/** Token totals, each message counted once with its last usage; per session and thread. */
export const tokensSectionSchema = z.object({
  total: tokenCounts,
  bySession: z.array(z.object({ session: z.string(), total: tokenCounts, byThread: z.record(z.string(), tokenCounts) })),
});

export type TokensSection = z.infer<typeof tokensSectionSchema>;

function section(bySession: TokensSection['bySession']): TokensSection {
  return { total: bySession.map((t) => t.total).reduce(addTokenCounts, emptyTokenCounts()), bySession };
}

class UsageCollector implements SectionCollector<TokensSection> {
  #bySession: TokensSection['bySession'] = [];

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as UsageSummary;
    if (it.kind === 'summary' && !session.duplicate) this.#bySession.push({ session: it.session, total: it.data.total, byThread: it.data.byThread });
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
