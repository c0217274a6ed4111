// Usage's name, and its one item: a session's usage at its end.
import type { AnalysisItem } from '../../core/items.js';
import type { SessionUsage } from './token-counts.js';

export const USAGE = 'usage';

export type UsageSummary = AnalysisItem<SessionUsage, 'summary'>;

/** A session's usage, as its summary item. */
export function usageSummary(session: string, data: SessionUsage): UsageSummary {
  return { kind: 'summary', analysis: USAGE, session, data };
}
