// What the sufficiency analysis adds to the stream.
import type { AnalysisItem } from '../../core/items.js';
import type { SufficiencyCall, SufficiencyCounts } from './summary.js';

export const SUFFICIENCY = 'sufficiency';

/** A probe call, decided. */
export interface SufficiencyFindingData {
  /** The probe tool (its name in the report). */
  readonly probe: string;
  /** The probe call's arrival order in its session: report order. */
  readonly seq: number;
  readonly call: SufficiencyCall;
}

export type SufficiencyFinding = AnalysisItem<SufficiencyFindingData, 'finding'>;
/** A session's counts, per probe tool it reports (every probe called in it; the one probe, always). */
export type SufficiencySummary = AnalysisItem<{ readonly byProbe: Readonly<Record<string, SufficiencyCounts>> }, 'summary'>;
export type SufficiencyItem = SufficiencyFinding | SufficiencySummary;

export function sufficiencyFinding(session: string, probe: string, seq: number, call: SufficiencyCall): SufficiencyFinding {
  return { kind: 'finding', analysis: SUFFICIENCY, session, data: { probe, seq, call } };
}

export function sufficiencySummary(session: string, byProbe: Readonly<Record<string, SufficiencyCounts>>): SufficiencySummary {
  return { kind: 'summary', analysis: SUFFICIENCY, session, data: { byProbe } };
}
