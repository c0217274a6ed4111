// What analyzers add to the event stream: findings as they are decided and
// one summary per session. Canonical events flow on beside them, so analyzers
// can be chained and sinks pick what they render.
import type { CanonicalEvent } from './events.js';
import type { SufficiencyCall, SufficiencyCounts } from './sufficiency/summary.js';

export interface SufficiencyFinding {
  readonly kind: 'finding';
  readonly analysis: 'sufficiency';
  readonly session: string;
  /** The probe call's arrival order in its session: report order. */
  readonly seq: number;
  readonly call: SufficiencyCall;
}

export interface SufficiencySummary {
  readonly kind: 'summary';
  readonly analysis: 'sufficiency';
  readonly session: string;
  readonly counts: SufficiencyCounts;
}

export type Finding = SufficiencyFinding;
export type Summary = SufficiencySummary;
export type ReportItem = Finding | Summary;
export type StreamItem = CanonicalEvent | ReportItem;

export function isReportItem(x: StreamItem): x is ReportItem {
  return x.kind === 'finding' || x.kind === 'summary';
}
