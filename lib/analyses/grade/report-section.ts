import { THREAD_KINDS } from '../../core/events.js';
// The report's `grade` section: what is kept (runs, pattern statistics) and
// what is derived from it (tasks, pass^k, warnings, the gate), so two reports
// merge by concatenating their runs.
import { z } from 'zod';
import { exitCodeFor } from '../../core/exit-code.js';
import { deadRuleReason, isMcpServer } from '../../permissions/rules.js';
import { nearerTool, ruleToolName, withToolName } from './near-tools.js';
import type { PatternStat } from './items.js';
import { FAIL_ON } from './options.js';
import type { CalibrationEvidence, FailOn } from './options.js';
import { calibrationEvidenceSchema, calibrationWarnings } from './evidence.js';
import { RULES } from './run-grader.js';
import type { RunResult } from './verdicts.js';
import { estimators, gateOf, STATUSES, tasksOf, verdictOf, VERDICTS } from './verdicts.js';

const count = z.number().int().nonnegative();

/** A tool pattern's counts over the calls read (PatternStat). */
export const patternStatSchema = z.object({ exact: count, folded: count, nearest: z.string().optional() });

export const flagSchema = z.object({
  rule: z.enum(RULES),
  severity: z.enum(['high', 'medium', 'low']),
  step: count,
  thread: z.string().nullable(),
  tool: z.string().nullable(),
  id: z.string().nullable(),
  detail: z.string(),
  count: count.optional(),
});

export const runResultSchema = z
  .object({
    run: z.string(),
    task: z.string(),
    session: z.string(),
    source: z.string(),
    delivered: z.boolean().nullable(),
    reward: z.number().optional(),
    verdict: z.enum(VERDICTS),
    steps: count,
    failStreak: count.optional(),
    stepsByThread: z.record(z.string(), count),
    threads: z.record(z.string(), z.enum(THREAD_KINDS)).optional(),
    flags: z.array(flagSchema),
    notEvaluated: z.array(z.string()),
    span: z.string().optional(),
    usage: z
      .object({
        messages: count,
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        cacheRead: z.number().nonnegative(),
        cacheCreation: z.number().nonnegative(),
        costUsd: z.number().nonnegative().nullable(),
        unpriced: z.array(z.string()).optional(),
        exact: z.boolean(),
        reportedCostUsd: z.number().nonnegative().optional(),
        wallMs: z.number().nonnegative().optional(),
      })
      .optional(),
    terminalReason: z.string().optional(),
    infra: z.string().optional(),
    mcpColdStart: z.array(z.string()).optional(),
    errors: z.array(z.string()).optional(),
    permissionDenials: count.optional(),
    missingSubagents: count.optional(),
  })
  // A verdict is derived from the run's outcome and flags (verdictOf), and
  // merges and comparisons count verdicts: a saved run whose verdict says
  // otherwise was edited or damaged, and which of its fields is wrong cannot
  // be known — so it is refused, never trusted nor silently redone.
  .superRefine((r, ctx) => {
    const derived = verdictOf(r.delivered, r.flags);
    if (r.verdict !== derived)
      ctx.addIssue({
        code: 'custom',
        path: ['verdict'],
        message: `${r.verdict} contradicts the run's own delivered (${r.delivered}) and ${r.flags.length === 0 ? 'no flags' : `flags (${r.flags.map((f) => `${f.rule} ${f.severity}`).join(', ')})`}, which make it ${derived}: the report was edited or damaged — make it again from its transcripts`,
      });
  });

export const taskResultSchema = z.object({
  task: z.string(),
  k: count,
  /** Runs whose outcome is known. */
  known: count,
  delivered: count,
  /** null when no run is known to have failed but some outcome is unknown (status unverified). */
  passK: z.boolean().nullable(),
  status: z.enum(STATUSES),
});

const estimate = z.record(z.string(), z.number());

export const gradeSectionSchema = z.object({
  config: z.string(),
  verified: z.boolean(),
  /** The evidence behind `verified`, when the config has a calibration block. */
  calibration: calibrationEvidenceSchema.optional(),
  judge: z.literal('disabled'),
  /** The reward a run was delivered at (config `reward_threshold`): present when a run had a reward. */
  rewardThreshold: z.number().optional(),
  failOn: z.array(z.enum(FAIL_ON)),
  runs: z.array(runResultSchema),
  tasks: z.array(taskResultSchema),
  summary: z.object({
    runs: count,
    tasks: count,
    verdicts: z.object(Object.fromEntries(VERDICTS.map((v) => [v, count])) as Record<(typeof VERDICTS)[number], typeof count>),
    statuses: z.object(Object.fromEntries(STATUSES.map((v) => [v, count])) as Record<(typeof STATUSES)[number], typeof count>),
    passHat: estimate,
    passAt: estimate,
    passHatGated: estimate,
  }),
  patterns: z.record(z.string(), patternStatSchema),
  taskPatternMisses: z.array(z.string()),
  /** `--outcomes` entries that name no run read (kept so merged reports stay exact). */
  unmatchedOutcomes: z.array(z.string()),
  warnings: z.array(z.string()),
  gate: z.object({ failed: z.boolean(), exitCode: z.number().int(), reasons: z.array(z.string()) }),
});

export type GradeSection = z.infer<typeof gradeSectionSchema>;

export interface GradeReportOptions {
  readonly config: string;
  readonly verified: boolean;
  readonly calibration?: CalibrationEvidence;
  readonly failOn: readonly FailOn[];
  /** Where a run's reward makes it delivered (config `reward_threshold`). */
  readonly rewardThreshold: number;
  /** The run ids `--outcomes` gave: those that match no run are reported. */
  readonly outcomeRuns?: readonly string[];
}

/** Why a grade section with no runs fails closed (exit 2). */
export const NOTHING_GRADED = 'no run was graded: no input held an agent run with at least one event';

/**
 * `--outcomes` ids that match no run, sorted. An id that is a prefix of a
 * run's id is still no match (ids are compared whole), and says so.
 */
export function unmatchedOutcomes(candidates: Iterable<string>, runs: readonly RunResult[]): string[] {
  const ids = new Set(runs.map((r) => r.run));
  return [...new Set(candidates)].filter((id) => !ids.has(id)).sort();
}

function unmatchedWarning(id: string, runs: readonly RunResult[]): string {
  const longer = runs.find((r) => r.run.startsWith(id));
  const hint = longer ? ` ('${id}' is only a prefix of run ${longer.run}: ids must match whole)` : '';
  return `--outcomes names run '${id}', which matches no run read${hint}`;
}

/**
 * Rules Claude Code never lets fire, and near misses: a pattern that matched
 * nothing, but would have ignoring case, or whose tool name is a typo of a
 * known one (`Bsh` for `Bash`).
 */
export function patternWarnings(patterns: Record<string, PatternStat>): string[] {
  const out: string[] = [];
  for (const [p, s] of Object.entries(patterns)) {
    const dead = deadRuleReason(p);
    const meant = s.exact === 0 && s.nearest !== undefined && s.nearest !== ruleToolName(p) ? `did you mean '${withToolName(p, s.nearest)}'?` : undefined;
    if (dead !== undefined) out.push(`this rule can never fire: '${p}': ${dead}`);
    else if (s.exact === 0 && s.folded > 0)
      out.push(
        `pattern '${p}' matched no call, but would have matched ${s.folded} ignoring case — tool names are case-sensitive${meant ? `: ${meant}` : ' (Read, Edit, Bash…)'}`,
      );
    else if (meant) {
      const name = ruleToolName(p)!;
      const what = isMcpServer(name) ? 'no MCP server the input announced or called' : "no tool the input announced or called, nor one of Claude Code's";
      out.push(`pattern '${p}' matched no call: '${name}' is ${what} — ${meant}`);
    }
  }
  return out;
}

export function addPatternStats(a: Record<string, PatternStat>, b: Record<string, PatternStat>): Record<string, PatternStat> {
  // A Map: a pattern is the config's text, and `__proto__` must stay a key.
  const out = new Map<string, PatternStat>();
  for (const src of [a, b]) {
    for (const [k, v] of Object.entries(src)) {
      const was = out.get(k);
      const nearest = nearerTool(k, was?.nearest, v.nearest);
      out.set(k, { exact: (was?.exact ?? 0) + v.exact, folded: (was?.folded ?? 0) + v.folded, ...(nearest !== undefined ? { nearest } : {}) });
    }
  }
  return Object.fromEntries([...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/**
 * `a` less `b`'s counts: a session's patterns taken back out when it is read
 * again. A nearest name stays: the session read again knows the same tools.
 */
export function subtractPatternStats(a: Record<string, PatternStat>, b: Record<string, PatternStat> | undefined): Record<string, PatternStat> {
  const gone = new Map(Object.entries(b ?? {}));
  return Object.fromEntries(
    Object.entries(a).map(([k, v]) => [k, { ...v, exact: v.exact - (gone.get(k)?.exact ?? 0), folded: v.folded - (gone.get(k)?.folded ?? 0) }]),
  );
}

/**
 * Everything derived from the kept parts. `inputErrors` makes the gate's exit
 * code the run's. `outcomeIds`: the `--outcomes` ids that may match no run.
 */
export function gradeSection(
  opts: GradeReportOptions,
  runs: RunResult[],
  patterns: Record<string, PatternStat>,
  misses: string[],
  inputErrors: number,
  outcomeIds: Iterable<string> = opts.outcomeRuns ?? [],
): GradeSection {
  const tasks = tasksOf(runs);
  const delivered = estimators(runs, (r) => r.delivered === true);
  const gated = estimators(runs, (r) => r.delivered === true && r.verdict !== 'corrupt-success');
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, runs.filter((r) => r.verdict === v).length])) as GradeSection['summary']['verdicts'];
  const statuses = Object.fromEntries(STATUSES.map((s) => [s, tasks.filter((t) => t.status === s).length])) as GradeSection['summary']['statuses'];
  const gate = gateOf(runs, tasks, opts.failOn);
  const unmatched = unmatchedOutcomes(outcomeIds, runs);
  const nothing = runs.length === 0;
  const warnings = [
    ...(nothing ? [NOTHING_GRADED] : []),
    ...patternWarnings(patterns),
    ...misses.map((m) => `--task-pattern matched nothing in '${m}': its runs are their own tasks`),
    ...unmatched.map((id) => unmatchedWarning(id, runs)),
    ...calibrationWarnings(opts.verified, opts.calibration, runs),
  ];
  return {
    config: opts.config,
    verified: opts.verified,
    ...(opts.calibration ? { calibration: { ...opts.calibration } } : {}),
    judge: 'disabled',
    ...(runs.some((r) => r.reward !== undefined) ? { rewardThreshold: opts.rewardThreshold } : {}),
    failOn: [...opts.failOn],
    runs,
    tasks,
    summary: { runs: runs.length, tasks: tasks.length, verdicts, statuses, passHat: delivered.passHat, passAt: delivered.passAt, passHatGated: gated.passHat },
    patterns,
    taskPatternMisses: misses,
    unmatchedOutcomes: unmatched,
    warnings,
    // Nothing graded fails closed: never a pass, and not a gate failure either.
    gate: { failed: gate.failed, exitCode: exitCodeFor({ inputErrors: inputErrors + (nothing ? 1 : 0), gateFailed: gate.failed }), reasons: gate.reasons },
  };
}
