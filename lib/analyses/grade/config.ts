// Grading's keys in agent-eval.yaml: the reference grader's
// trace-grader.config.yaml keys, accepted unchanged at the top level so an
// existing config works as it is.
import { z } from 'zod';
import { toolPatternSchema } from '../../permissions/pattern-syntax.js';
import { namedRecord } from '../../core/named-record.js';

/** A threshold a task may set for itself, falling back to the global one. */
const taskThresholds = z.strictObject({
  retry_threshold: z.number().int().nonnegative().optional(),
  step_budget: z.number().int().positive().optional(),
});

const positiveCount = z.number().int().positive();

/**
 * The evidence behind `verified: true`, as `calibrate` writes it, and the
 * rules `calibrate` follows. The evidence keys come together or not at all:
 * half a fingerprint is no evidence.
 */
export const calibrationBlock = z
  .strictObject({
    corpus: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256: and 64 hex digits (as calibrate writes it)')
      .optional(),
    runs: positiveCount.optional(),
    tasks: positiveCount.optional(),
    p90_steps: z.number().int().nonnegative().optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date, YYYY-MM-DD')
      .optional(),
    version: z.string().optional(),
    /** A task needs this many delivered runs for a threshold of its own. */
    min_task_runs: positiveCount.optional(),
    /** The corpus needs this many delivered runs for any suggestion. */
    min_runs: positiveCount.optional(),
    /** The share of delivered runs a suggested threshold may flag. */
    max_flagged: z.number().min(0).max(1).optional(),
  })
  .superRefine((c, ctx) => {
    const keys = ['corpus', 'runs', 'tasks', 'p90_steps', 'date', 'version'] as const;
    const given = keys.filter((k) => c[k] !== undefined);
    if (given.length === 0 || given.length === keys.length) return;
    for (const k of keys)
      if (c[k] === undefined)
        ctx.addIssue({ code: 'custom', path: [k], message: `missing: the evidence is ${keys.join(', ')} together (calibrate writes them all)` });
  });

export const gradeConfig = {
  verified: z.boolean().optional(),
  /** Per task: its own step_budget and retry_threshold (task name → thresholds). */
  tasks: namedRecord(taskThresholds).nullable().optional(),
  calibration: calibrationBlock.nullable().optional(),
  forbidden_tools: z.array(toolPatternSchema).optional(),
  retry_threshold: z.number().int().nonnegative().optional(),
  step_budget: z.number().int().positive().optional(),
  /** A run with a verifier's reward (a Harbor trial) is delivered when the reward reaches this (default 1). */
  reward_threshold: z.number().finite().optional(),
  order_constraints: z
    .strictObject({ must_precede: z.array(z.tuple([toolPatternSchema, toolPatternSchema])).optional() })
    .nullable()
    .optional(),
  grounding: z.strictObject({ enabled: z.boolean().optional() }).nullable().optional(),
  judge: z
    .strictObject({
      enabled: z.boolean().optional(),
      model: z.string().nullable().optional(),
      rubric: z.array(z.string()).nullable().optional(),
    })
    .nullable()
    .optional(),
};

export type GradeConfig = z.infer<z.ZodObject<typeof gradeConfig>>;
