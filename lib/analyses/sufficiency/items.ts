// What the sufficiency analysis adds to the stream.
import type { AnalysisItem } from '../../core/items.js';
import type { SufficiencyCall, SufficiencyCounts } from './summary.js';

export const SUFFICIENCY = 'sufficiency';

/** A probe call, decided. */
export interface SufficiencyFindingData {
  /** The probe call's arrival order in its session: report order. */
  readonly seq: number;
  readonly call: SufficiencyCall;
}

export type SufficiencyFinding = AnalysisItem<SufficiencyFindingData, 'finding'>;
export type SufficiencySummary = AnalysisItem<{ readonly counts: SufficiencyCounts }, 'summary'>;
export type SufficiencyItem = SufficiencyFinding | SufficiencySummary;

export function sufficiencyFinding(session: string, seq: number, call: SufficiencyCall): SufficiencyFinding {
  return { kind: 'finding', analysis: SUFFICIENCY, session, data: { seq, call } };
}

export function sufficiencySummary(session: string, counts: SufficiencyCounts): SufficiencySummary {
  return { kind: 'summary', analysis: SUFFICIENCY, session, data: { counts } };
}
