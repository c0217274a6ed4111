// Token counts: what a model read and wrote, per message counted once.
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
function add(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_VALUE);
}

export function addTokenCounts(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { messages: add(a.messages, b.messages), input: add(a.input, b.input), output: add(a.output, b.output), cacheRead: add(a.cacheRead, b.cacheRead), cacheCreation: add(a.cacheCreation, b.cacheCreation) };
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

/** One session's token counts, in all and per thread, and what its last result reported. */
export type UsageSummary = AnalysisItem<{ readonly total: TokenCounts; readonly byThread: Record<string, TokenCounts>; readonly reported?: ReportedUsage }, 'summary'>;

export function usageSummary(session: string, total: TokenCounts, byThread: Record<string, TokenCounts>, reported?: ReportedUsage): UsageSummary {
  return { kind: 'summary', analysis: USAGE, session, data: reported ? { total, byThread, reported } : { total, byThread } };
}
