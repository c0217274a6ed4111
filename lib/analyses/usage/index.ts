// Token usage and cost per session, thread, model and agent type: each API
// message counted once, with its last usage, priced by the price table
// (lib/core/model-prices.ts, and agent-eval.yaml's `usage.prices`). Its report
// section keeps the name `tokens`. docs/usage.md states the rules.
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis, MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import { UsageCounter } from './counter.js';
import type { UsageOptions } from './counter.js';
import { usageConfig } from './config.js';
import { addModelTokens, addReported, addTokenCounts, CostSum, emptyTokenCounts } from './token-counts.js';
import type { ModelTokens, TokenCounts, UsageSummary } from './token-counts.js';
import { tokensSectionSchema } from './report-section.js';
import type { TokensSection } from './report-section.js';
import { renderUsageText, usageJunit, usageMarkdown } from './render.js';
import { USAGE } from './token-counts.js';
import { usageFigures } from './figures.js';
import { byRank } from '../../core/arrays.js';

export type { TokensSection } from './report-section.js';
export { tokensSectionSchema } from './report-section.js';

/** Everything derived from the sessions' entries: totals, per model, per agent type. */
function section(bySession: TokensSection['bySession']): TokensSection {
  let total = emptyTokenCounts();
  const cost = new CostSum();
  // Maps: models and agent types are the input's names, `__proto__` included.
  const byModel = new Map<string, ModelTokens>();
  const byAgentType = new Map<string, { counts: TokenCounts; cost: CostSum; threads: number }>();
  for (const s of bySession) {
    total = addTokenCounts(total, s.total);
    cost.add(s.cost);
    for (const [model, m] of Object.entries(s.byModel)) {
      const cur = byModel.get(model);
      byModel.set(model, cur ? addModelTokens(cur, m) : m);
    }
    for (const t of Object.values(s.byThread)) {
      let a = byAgentType.get(t.agentType);
      if (!a) byAgentType.set(t.agentType, (a = { counts: emptyTokenCounts(), cost: new CostSum(), threads: 0 }));
      a.counts = addTokenCounts(a.counts, t);
      a.cost.add(t);
      a.threads++;
    }
  }
  const sums = bySession.flatMap((t) => (t.reported ? [t.reported] : []));
  return {
    total,
    cost: cost.cost,
    byModel: Object.fromEntries(byModel),
    byAgentType: Object.fromEntries([...byAgentType].map(([type, a]) => [type, { ...a.counts, ...a.cost.cost, threads: a.threads }])),
    ...(sums.length ? { reported: sums.reduce(addReported, { costUsd: 0, byModel: {} }) } : {}),
    bySession,
  };
}

class UsageCollector implements SectionCollector<TokensSection> {
  #bySession: TokensSection['bySession'] = [];

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as UsageSummary;
    if (it.kind === 'summary' && !session.duplicate) this.#bySession.push({ session: it.session, ...it.data });
  }

  forget(session: string): void {
    this.#bySession = this.#bySession.filter((t) => t.session !== session);
  }

  build(): TokensSection {
    return section([...this.#bySession]);
  }
}

export const usageAnalysis: Analysis<UsageOptions, TokensSection, 'tokens'> = {
  name: USAGE,
  key: 'tokens',
  config: usageConfig,
  logic: (o) => new UsageCounter(o),
  resultText: () => () => false,
  section: tokensSectionSchema,
  collector: () => new UsageCollector(),
  runFigures: usageFigures,
  merge: (a, b, env: MergeEnv) => section([...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((t) => !env.inFirst(t.session))]),
  reorder: (t, rank) => section(byRank(t.bySession, (s) => s.session, rank)),
  render: {
    text: renderUsageText,
    markdown: (s) => ({ body: usageMarkdown(s) }),
    junit: usageJunit,
    ndjsonSummary: ({ bySession: _bySession, ...rest }) => rest,
  },
};
