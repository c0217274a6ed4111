// Token counts: what a model read and wrote, per message counted once, and
// what it cost.
import type { AnalysisItem } from '../../core/items.js';

export const USAGE = 'usage';

/** Tokens of the messages counted, each message once with its last usage. */
export interface TokenCounts {
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

export function emptyTokenCounts(): TokenCounts {
  return { messages: 0, input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
}

/**
 * A sum that stays finite: each count is finite, but two near the largest
 * double would add to Infinity, which JSON writes as null.
 */
export function add(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_VALUE);
}

export function addTokenCounts(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { messages: add(a.messages, b.messages), input: add(a.input, b.input), output: add(a.output, b.output), cacheRead: add(a.cacheRead, b.cacheRead), cacheCreation: add(a.cacheCreation, b.cacheCreation) };
}

/** What some tokens cost: USD for the models with a price, and the models without one (never counted as $0). */
export interface Cost {
  costUsd: number;
  /** Models with tokens here and no price, sorted; absent when every one has a price. */
  unpriced?: string[];
}

/** Models without a price named in one list: past this many, the rest are counted, not named. */
export const MAX_UNPRICED = 20;

/** Sums of costs, the models without a price gathered once (not re-sorted per cost added). */
export class CostSum {
  #usd = 0;
  readonly #unpriced = new Set<string>();

  add(c: Cost): this {
    this.#usd = add(this.#usd, c.costUsd);
    for (const m of c.unpriced ?? []) if (this.#unpriced.size < MAX_UNPRICED) this.#unpriced.add(m);
    return this;
  }

  get cost(): Cost {
    return this.#unpriced.size ? { costUsd: this.#usd, unpriced: [...this.#unpriced].sort() } : { costUsd: this.#usd };
  }
}


/** One model's tokens, its 1-hour cache writes apart, and their cost (null: no price). */
export interface ModelTokens extends TokenCounts {
  cacheCreation1h: number;
  costUsd: number | null;
}

export function addModelTokens(a: ModelTokens, b: ModelTokens): ModelTokens {
  return { ...addTokenCounts(a, b), cacheCreation1h: add(a.cacheCreation1h, b.cacheCreation1h), costUsd: a.costUsd === null || b.costUsd === null ? null : add(a.costUsd, b.costUsd) };
}

/** A thread's tokens and cost, the kind of agent that ran it, and the time from its first event to its last. */
export interface ThreadUsage extends TokenCounts, Cost {
  /** `main`, the subagent type its Task/Agent call asked for, `workflow`, or `(unlinked)`. */
  agentType: string;
  wallMs?: number;
}

/** One model's tokens and cost, as Claude Code reports them. */
export interface ModelUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  costUsd: number;
}

/**
 * What Claude Code's last `result` of a session reports: its cost and tokens
 * per model, cumulative over the session and its subagents (stream-json).
 */
export interface ReportedUsage {
  costUsd: number;
  byModel: Record<string, ModelUsage>;
}

export function addReported(a: ReportedUsage, b: ReportedUsage): ReportedUsage {
  const byModel = new Map(Object.entries(a.byModel));
  for (const [model, u] of Object.entries(b.byModel)) {
    const x = byModel.get(model);
    byModel.set(model, x ? { input: add(x.input, u.input), output: add(x.output, u.output), cacheRead: add(x.cacheRead, u.cacheRead), cacheCreation: add(x.cacheCreation, u.cacheCreation), costUsd: add(x.costUsd, u.costUsd) } : { ...u });
  }
  return { costUsd: add(a.costUsd, b.costUsd), byModel: Object.fromEntries(byModel) };
}

/** One session's usage: in all (with its cost), per thread and per model, and what its last result reported. */
export interface SessionUsage {
  readonly total: TokenCounts;
  readonly cost: Cost;
  readonly byThread: Record<string, ThreadUsage>;
  readonly byModel: Record<string, ModelTokens>;
  readonly reported?: ReportedUsage;
}

export type UsageSummary = AnalysisItem<SessionUsage, 'summary'>;

export function usageSummary(session: string, data: SessionUsage): UsageSummary {
  return { kind: 'summary', analysis: USAGE, session, data };
}
