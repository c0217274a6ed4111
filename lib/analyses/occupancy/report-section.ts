// The report's `occupancy` section: per session, each thread's window.
import { z } from 'zod';
import { FAMILIES } from './gaps.js';

const count = z.number().nonnegative();
const perFamily = z.object(Object.fromEntries(FAMILIES.map((f) => [f, count])) as Record<(typeof FAMILIES)[number], typeof count>);

const threadSchema = z.object({
  thread: z.string(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  ctxBase: z.number(),
  ctxFinal: z.number(),
  turns: z.number().int().nonnegative(),
  compactions: z.number().int().nonnegative(),
  chars: perFamily,
  results: perFamily,
  charsPerToken: z.number(),
  calibrated: z.boolean(),
  dispersion: z.number().nullable(),
  residual: perFamily,
  contributed: perFamily,
  evicted: count,
});

export const occupancySectionSchema = z.object({
  /** The window of every session that names no 1M-context model: the config's, or the default. */
  window: z.number().int().positive(),
  bySession: z.array(
    z.object({
      session: z.string(),
      /** This session's window, when its model's name set it (`windowModel`). */
      window: z.number().int().positive().optional(),
      windowModel: z.string().optional(),
      threads: z.array(threadSchema),
    }),
  ),
});

export type OccupancySection = z.infer<typeof occupancySectionSchema>;
