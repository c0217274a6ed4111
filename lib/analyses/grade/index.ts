// Trajectory grading: each run's steps against config rules, a verdict per
// run, pass^k per task, and a gate. The rules live in run-grader.ts and
// verdicts.ts; docs/grading.md states them.
import type { Analysis } from '../types.js';
import type { Registration } from '../registration.js';
import type { AnalysisItem } from '../../core/items.js';
import { Grader } from './logic.js';
import { gradeOptionsFrom } from './options.js';
import type { GradeFlagValues, GradeOptions } from './options.js';
import { GRADE_FLAGS, readGradeFlags } from './flags.js';
import { gradeConfig } from './config.js';
import { gradeSectionSchema, NOTHING_GRADED } from './report-section.js';
import type { GradeSection } from './report-section.js';
import { GradeCollector, mergeGrade } from './collect.js';
import { gradeLiveLine, renderGradeText } from './render-text.js';
import { gradeMarkdown } from './render-markdown.js';
import { gradeJunit } from './render-junit.js';
import { gradeEvaluations } from './render-otel.js';
import { GRADE } from './items.js';
import { byRank } from '../../core/arrays.js';
import type { GradeItem } from './items.js';
import { gradeFigures } from './figures.js';

export const gradeAnalysis: Analysis<GradeOptions, GradeSection, 'grade', 'grade', typeof gradeConfig> = {
  name: GRADE,
  key: 'grade',
  config: gradeConfig,
  logic: (o) => new Grader(o),
  // Grading reads whether a call failed, never what its result says.
  resultText: () => () => false,
  section: gradeSectionSchema,
  collector: (o, c) =>
    new GradeCollector(
      {
        config: o.config,
        verified: o.verified,
        ...(o.calibration ? { calibration: o.calibration } : {}),
        failOn: o.failOn,
        rewardThreshold: o.rewardThreshold,
        outcomeRuns: o.outcomes ? [...o.outcomes.keys()] : undefined,
      },
      c.keepDetail,
    ),
  runFigures: gradeFigures,
  merge: mergeGrade,
  reorder: (g, rank, env) =>
    mergeGrade(
      undefined,
      { ...g, runs: byRank(g.runs, (r) => r.session, rank), taskPatternMisses: byRank(g.taskPatternMisses, (f) => f, rank) },
      { ...env, inFirst: () => false },
    ),
  // Grading that graded nothing fails closed, like an unreadable input.
  gate: (g) => ({ failed: g.gate.failed, problems: g.runs.length === 0 ? [NOTHING_GRADED] : [] }),
  render: {
    text: (g, paint) => renderGradeText(g, paint),
    live: gradeLiveLine,
    markdown: gradeMarkdown,
    junit: gradeJunit,
    evaluations: gradeEvaluations,
    ndjsonItem: (item: AnalysisItem) => {
      const it = item as GradeItem;
      if (it.kind === 'finding') return { type: 'finding', analysis: GRADE, session: it.session, run: it.data.run, ...it.data.flag };
      if (it.kind === 'result') return { type: 'run', analysis: GRADE, ...it.data.result };
      return undefined;
    },
    ndjsonSummary: ({ runs: _runs, patterns: _patterns, ...rest }) => rest,
  },
};

export const gradeRegistration = {
  analysis: gradeAnalysis,
  runs: 'by default',
  page: 'grading.md',
  flags: GRADE_FLAGS,
  readFlags: readGradeFlags,
  options: gradeOptionsFrom,
} satisfies Registration<GradeOptions, GradeFlagValues, 'grade'>;
