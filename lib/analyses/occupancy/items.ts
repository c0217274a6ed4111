// Occupancy's name, and its one item: a session's threads at its end.
import type { AnalysisItem } from '../../core/items.js';
import type { Timeline } from './gaps.js';
import type { Occupancy } from './residual.js';

export const OCCUPANCY = 'occupancy';

export interface ThreadOccupancy extends Omit<Timeline, 'gaps'>, Occupancy {
  readonly thread: string;
  /** A subagent's type and description, as its Task/Agent call gave them. */
  readonly agentType?: string;
  readonly description?: string;
}

export type OccupancySummary = AnalysisItem<{ readonly threads: ThreadOccupancy[]; readonly model?: string }, 'summary'>;
