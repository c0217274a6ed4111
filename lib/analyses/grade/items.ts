// What trajectory grading adds to the stream.
import type { AnalysisItem } from '../../core/items.js';
import type { Flag } from './run-grader.js';
import type { RunResult } from './verdicts.js';

export const GRADE = 'grade';

export interface PatternStat {
  /** Calls the pattern matched. */
  exact: number;
  /** Calls it would have matched ignoring the case of tool names. */
  folded: number;
  /**
   * For a rule that matched no call, naming a tool that is none of Claude
   * Code's: the known tool name nearest its own (lib/analyses/grade/near-tools.ts)
   * — its own when a session announced it — when one is near enough to be
   * what was meant. A name other than its own is a typo's warning.
   */
  nearest?: string;
}

/** A flag, decided. */
export type GradeFinding = AnalysisItem<{ readonly run: string; readonly flag: Flag }, 'finding'>;
/** A graded run, when its verdict is known. */
export type GradeResult = AnalysisItem<{ readonly result: RunResult }, 'result'>;
export type GradeSummary = AnalysisItem<{ readonly patterns: Record<string, PatternStat>; readonly taskPatternMisses: string[] }, 'summary'>;
export type GradeItem = GradeFinding | GradeResult | GradeSummary;

export function gradeFinding(session: string, run: string, flag: Flag): GradeFinding {
  return { kind: 'finding', analysis: GRADE, session, data: { run, flag } };
}

export function gradeResult(session: string, result: RunResult): GradeResult {
  return { kind: 'result', analysis: GRADE, session, data: { result } };
}

export function gradeSummary(session: string, patterns: Record<string, PatternStat>, taskPatternMisses: string[]): GradeSummary {
  return { kind: 'summary', analysis: GRADE, session, data: { patterns, taskPatternMisses } };
}
