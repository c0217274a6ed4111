// Grading's building blocks (`agent-eval-stream/grade`): permission patterns,
// the per-run grader, verdicts, tasks and the pass^k estimators.

// Needs @types/node, as every entry point does (see index.ts).
/// <reference types="node" preserve="true" />

export { parseToolPattern } from '../../permissions/tool-pattern.js';
export { patternProblem } from '../../permissions/pattern-syntax.js';
export type { ToolPattern, PatternContext } from '../../permissions/tool-pattern.js';
export { RunGrader, RULES } from './run-grader.js';
export type { Flag, Rule, Severity, Observes } from './run-grader.js';
export { verdictOf, tasksOf, taskResult, estimators, gateOf, choose, VERDICTS, STATUSES } from './verdicts.js';
export type { RunResult, TaskResult, Verdict, TaskStatus } from './verdicts.js';
export { gradeSection, gradeSectionSchema, runResultSchema, flagSchema, taskResultSchema } from './report-section.js';
export type { GradeSection, GradeReportOptions } from './report-section.js';
export type { GradeFinding, GradeResult, GradeSummary, GradeItem, PatternStat } from './items.js';
