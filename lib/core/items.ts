// What analyses add to the event stream. Canonical events flow on beside
// them, so analyses can be chained and sinks pick what they render. The core
// names no analysis: an item carries its analysis' name and its data, and
// each analysis (lib/analyses/<name>/items.ts) says what its data holds.
import type { CanonicalEvent } from './events.js';

/**
 * `finding`: decided as the stream goes (a probe's verdict, a flag);
 * `result`: one unit's outcome once it is complete (a graded run);
 * `summary`: one per session, once the session has ended, after its findings.
 */
export type AnalysisItemKind = 'finding' | 'result' | 'summary';

export interface AnalysisItem<D = unknown, K extends AnalysisItemKind = AnalysisItemKind> {
  readonly kind: K;
  /** The analysis' name. */
  readonly analysis: string;
  readonly session: string;
  readonly data: D;
}

export type StreamItem = CanonicalEvent | AnalysisItem;

export function isAnalysisItem(x: StreamItem): x is AnalysisItem {
  return 'analysis' in x;
}
