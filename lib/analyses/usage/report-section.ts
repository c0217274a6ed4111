// The report's `tokens` section: per session (what merges keep), and what is
// derived from it — totals, cost, per model and per agent type.
import { z } from 'zod';

const count = z.number().nonnegative();

const tokenCounts = z.object({
  messages: z.number().int().nonnegative(),
  input: count,
  output: count,
  cacheRead: count,
  cacheCreation: count,
});

const cost = {
  /** USD of the tokens of models with a price. */
  costUsd: count,
  /** Models with tokens and no price: their tokens are not in `costUsd`. */
  unpriced: z.array(z.string()).optional(),
};

const modelTokens = tokenCounts.extend({ cacheCreation1h: count, costUsd: count.nullable() });

/** What Claude Code's results report: cost in USD and tokens per model, cumulative over a session and its subagents. */
const reported = z.object({
  costUsd: count,
  byModel: z.record(z.string(), z.object({ input: count, output: count, cacheRead: count, cacheCreation: count, costUsd: count })),
});

export const tokensSectionSchema = z.object({
  total: tokenCounts,
  cost: z.object(cost),
  byModel: z.record(z.string(), modelTokens),
  byAgentType: z.record(z.string(), tokenCounts.extend({ ...cost, threads: z.number().int().nonnegative() })),
  reported: reported.optional(),
  bySession: z.array(
    z.object({
      session: z.string(),
      total: tokenCounts,
      cost: z.object(cost),
      byThread: z.record(z.string(), tokenCounts.extend({ ...cost, agentType: z.string(), wallMs: count.optional() })),
      byModel: z.record(z.string(), modelTokens),
      reported: reported.optional(),
    }),
  ),
});

export type TokensSection = z.infer<typeof tokensSectionSchema>;
