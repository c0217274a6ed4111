// What analyzers add to the event stream: findings as they are decided and
// one summary per session. Canonical events flow on beside them, so analyzers
// can be chained and sinks pick what they render.
import type { CanonicalEvent } from './events.js';
import type { SufficiencyCall, SufficiencyCounts } from '../analyses/sufficiency/summary.js';
import type { Flag } from '../analyses/grade/run-grader.js';
import type { RunResult } from '../analyses/grade/verdicts.js';

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

export interface GradeFinding {
  readonly kind: 'finding';
  readonly analysis: 'grade';
  readonly session: string;
  readonly run: string;
  readonly flag: Flag;
}

/** A graded run, when its verdict is known. */
export interface GradeRun {
  readonly kind: 'run';
  readonly analysis: 'grade';
  readonly session: string;
  readonly result: RunResult;
}

export interface PatternStat {
  /** Calls the pattern matched. */
  exact: number;
  /** Calls it would have matched ignoring the case of tool names. */
  folded: number;
}

export interface GradeSummary {
  readonly kind: 'summary';
  readonly analysis: 'grade';
  readonly session: string;
  readonly patterns: Record<string, PatternStat>;
  /** Session paths --task-pattern did not match. */
  readonly taskPatternMisses: string[];
}

/** Tokens of the messages counted, each message once with its last usage. */
export interface Tokens {
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

export interface TokensSummary {
  readonly kind: 'summary';
  readonly analysis: 'tokens';
  readonly session: string;
  readonly total: Tokens;
  readonly byThread: Record<string, Tokens>;
}

export type Finding = SufficiencyFinding | GradeFinding;
export type Summary = SufficiencySummary | GradeSummary | TokensSummary;
export type ReportItem = Finding | Summary | GradeRun;
export type StreamItem = CanonicalEvent | ReportItem;

export function isReportItem(x: StreamItem): x is ReportItem {
  return x.kind === 'finding' || x.kind === 'summary' || x.kind === 'run';
}
