// Allocation's name, and its one item: a session's threads at its end.
import type { AnalysisItem } from '../../core/items.js';
import type { Allocation } from './attribution.js';

export const ALLOCATION = 'allocation';

/** Where a thread's answer text came from. */
export type AnswerSource = 'result' | 'message' | 'none';

export interface ThreadAllocation extends Allocation {
  readonly thread: string;
  /** A subagent's type and description, as its Task/Agent call gave them. */
  readonly agentType?: string;
  readonly description?: string;
  readonly answerFrom: AnswerSource;
}

export type AllocationSummary = AnalysisItem<{ readonly threads: ThreadAllocation[] }, 'summary'>;
