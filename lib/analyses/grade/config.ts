// Grading's keys in agent-eval.yaml: the reference grader's
// trace-grader.config.yaml keys, accepted unchanged at the top level so an
// existing config works as it is.
import { z } from 'zod';
import { patternProblem } from './patterns.js';

// A pattern Claude Code would not read is an error here, not a rule that never matches.
/** A tool pattern in the permission-rule grammar (patterns.ts): one Claude Code would accept. */
export const toolPattern = z.string().superRefine((s, ctx) => {
  const problem = patternProblem(s);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

export const gradeConfig = {
  verified: z.boolean().optional(),
  forbidden_tools: z.array(toolPattern).optional(),
  retry_threshold: z.number().int().nonnegative().optional(),
  step_budget: z.number().int().positive().optional(),
  order_constraints: z.strictObject({ must_precede: z.array(z.tuple([toolPattern, toolPattern])).optional() }).nullable().optional(),
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
