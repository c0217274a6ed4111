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

export function addTokenCounts(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { messages: a.messages + b.messages, input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheCreation: a.cacheCreation + b.cacheCreation };
}

/** One session's token counts, in all and per thread. */
export type UsageSummary = AnalysisItem<{ readonly total: TokenCounts; readonly byThread: Record<string, TokenCounts> }, 'summary'>;

export function usageSummary(session: string, total: TokenCounts, byThread: Record<string, TokenCounts>): UsageSummary {
  return { kind: 'summary', analysis: USAGE, session, data: { total, byThread } };
}
