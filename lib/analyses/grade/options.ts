// Grading's settings: the reference engine's defaults, the config's keys
// (the reference's trace-grader.config.yaml, unchanged), then flags.
import { dirname } from 'node:path';
import type { GradeConfig } from './config.js';
import type { PatternContext, ToolPattern } from '../../permissions/tool-pattern.js';
import { parseToolPattern } from '../../permissions/tool-pattern.js';
import type { Price } from '../../core/prices.js';
import type { OptionSources } from '../registration.js';
import { pricer, priceTable } from '../../core/prices.js';
import { DEFAULT_PRICES } from '../../core/model-prices.js';
import { DEFAULT_REWARD_THRESHOLD } from '../../core/reward.js';

/** The reference engine's own defaults, used when no config exists. */
export const GRADE_DEFAULTS = { retryThreshold: 3, stepBudget: 40, grounding: true, verified: false } as const;

export const FAIL_ON = ['corrupt-success', 'flaky', 'failing', 'warnings'] as const;
export type FailOn = (typeof FAIL_ON)[number];
export const DEFAULT_FAIL_ON: readonly FailOn[] = ['corrupt-success', 'flaky', 'failing'];

export interface GradeOptions {
  /** "built-in defaults", or the config file's path. */
  readonly config: string;
  readonly verified: boolean;
  readonly judge: { readonly enabled: boolean; readonly model: string | null; readonly rubric: readonly string[] };
  readonly forbidden: readonly ToolPattern[];
  readonly mustPrecede: ReadonlyArray<readonly [ToolPattern, ToolPattern]>;
  readonly retryThreshold: number;
  readonly stepBudget: number;
  /** A run's reward (a Harbor trial's verifier) at or above this is delivered (config `reward_threshold`). */
  readonly rewardThreshold: number;
  /** Tasks' own thresholds (config `tasks`), over the global ones. */
  readonly taskThresholds: ReadonlyMap<string, Partial<Thresholds>>;
  /** The evidence behind `verified` (config `calibration`), when the config has it. */
  readonly calibration?: CalibrationEvidence;
  /** The rules `calibrate` follows (config `calibration`'s min_task_runs, min_runs, max_flagged). */
  readonly calibrationRules: CalibrationRules;
  readonly grounding: boolean;
  /** All inputs are one task's runs. */
  readonly task?: string;
  /** The first capture group (or the whole match) of a session's path names its task. */
  readonly taskPattern?: RegExp;
  /** Run id → delivered, from --outcomes. */
  readonly outcomes?: ReadonlyMap<string, boolean>;
  readonly failOn: readonly FailOn[];
  /** Prices of runs' tokens (usage's table: the built-in one, with the config's `usage.prices` over it). */
  readonly price: (model: string) => Price | undefined;
}

/** The two thresholds a task may set for itself. */
export interface Thresholds {
  readonly stepBudget: number;
  readonly retryThreshold: number;
}

/** What `calibrate` wrote into the config: the corpus the thresholds were checked on. */
export interface CalibrationEvidence {
  /** sha256 over the sorted run ids and their step counts. */
  readonly corpus: string;
  readonly runs: number;
  readonly tasks: number;
  /** The pooled p90 (nearest rank) of the delivered runs' steps. */
  readonly p90Steps: number;
  readonly date: string;
  readonly version: string;
}

export interface CalibrationRules {
  /** Delivered runs a task needs for a threshold of its own. */
  readonly minTaskRuns: number;
  /** Delivered runs the corpus needs for any suggestion. */
  readonly minRuns: number;
  /** The share of delivered runs a suggested threshold may flag. */
  readonly maxFlagged: number;
}

export const CALIBRATION_DEFAULTS: CalibrationRules = { minTaskRuns: 20, minRuns: 20, maxFlagged: 0.01 };

/** A task's thresholds: its own where the config gives them, else the global ones. */
export function thresholdsFor(o: Pick<GradeOptions, 'stepBudget' | 'retryThreshold' | 'taskThresholds'>, task: string): Thresholds {
  const own = o.taskThresholds.get(task);
  return { stepBudget: own?.stepBudget ?? o.stepBudget, retryThreshold: own?.retryThreshold ?? o.retryThreshold };
}

export interface GradeFlags {
  task?: string;
  taskPattern?: string;
  outcomes?: ReadonlyMap<string, boolean>;
  failOn?: readonly FailOn[];
  home?: string;
}

/** A config as read: grading's keys, and the file they came from (null: none). */
export interface LoadedGradeConfig {
  readonly config: GradeConfig;
  readonly path: string | null;
}

export function gradeOptions(loaded: LoadedGradeConfig, flags: GradeFlags = {}): GradeOptions {
  const c = loaded.config;
  const ctx: PatternContext = { configDir: loaded.path === null ? undefined : dirname(loaded.path), home: flags.home };
  const pattern = (s: string): ToolPattern => parseToolPattern(s, ctx);
  return {
    config: loaded.path ?? 'built-in defaults',
    verified: c.verified ?? GRADE_DEFAULTS.verified,
    judge: { enabled: c.judge?.enabled ?? false, model: c.judge?.model ?? null, rubric: c.judge?.rubric ?? [] },
    forbidden: (c.forbidden_tools ?? []).map(pattern),
    mustPrecede: (c.order_constraints?.must_precede ?? []).map(([a, b]) => [pattern(a), pattern(b)] as const),
    retryThreshold: c.retry_threshold ?? GRADE_DEFAULTS.retryThreshold,
    stepBudget: c.step_budget ?? GRADE_DEFAULTS.stepBudget,
    rewardThreshold: c.reward_threshold ?? DEFAULT_REWARD_THRESHOLD,
    // A Map: task names are the inputs', and `__proto__` must stay a name.
    taskThresholds: new Map(
      Object.entries(c.tasks ?? {}).map(([task, v]) => [
        task,
        {
          ...(v.step_budget !== undefined ? { stepBudget: v.step_budget } : {}),
          ...(v.retry_threshold !== undefined ? { retryThreshold: v.retry_threshold } : {}),
        },
      ]),
    ),
    ...(c.calibration?.corpus !== undefined ? { calibration: evidenceOf(c.calibration) } : {}),
    calibrationRules: {
      minTaskRuns: c.calibration?.min_task_runs ?? CALIBRATION_DEFAULTS.minTaskRuns,
      minRuns: c.calibration?.min_runs ?? CALIBRATION_DEFAULTS.minRuns,
      maxFlagged: c.calibration?.max_flagged ?? CALIBRATION_DEFAULTS.maxFlagged,
    },
    grounding: c.grounding?.enabled ?? GRADE_DEFAULTS.grounding,
    task: flags.task,
    taskPattern: flags.taskPattern === undefined ? undefined : new RegExp(flags.taskPattern),
    outcomes: flags.outcomes,
    failOn: flags.failOn ?? DEFAULT_FAIL_ON,
    price: pricer(priceTable(DEFAULT_PRICES, (c as { usage?: { prices?: unknown } | null }).usage?.prices, loaded.path ?? undefined)),
  };
}

/** The config's evidence block (its keys all present: the schema checks they come together). */
function evidenceOf(c: NonNullable<GradeConfig['calibration']>): CalibrationEvidence {
  return { corpus: c.corpus!, runs: c.runs!, tasks: c.tasks!, p90Steps: c.p90_steps!, date: c.date!, version: c.version! };
}

/** Every pattern of the config, once each, for match statistics. */
export function allPatterns(o: GradeOptions): ToolPattern[] {
  const seen = new Map<string, ToolPattern>();
  for (const p of [...o.forbidden, ...o.mustPrecede.flat()]) if (!seen.has(p.source)) seen.set(p.source, p);
  return [...seen.values()];
}

/**
 * `--task`, `--task-pattern` and `--fail-on`, checked. `--outcomes` names a
 * file, which the command reads (an input like the transcripts): its runs
 * reach the options as the run's `outcomes`.
 */
export interface GradeFlagValues {
  readonly task?: string;
  readonly taskPattern?: string;
  readonly failOn?: readonly FailOn[];
}

/** A run's options: the config's keys, and the flags over them. */
export function gradeOptionsFrom({ config, configPath, flags: f, outcomes, home }: OptionSources<GradeFlagValues, GradeConfig>): GradeOptions {
  return gradeOptions({ config, path: configPath }, { task: f.task, taskPattern: f.taskPattern, outcomes, failOn: f.failOn, home });
}
