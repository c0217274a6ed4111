// The report's `allocation` section: per session, each thread's figures.
import { z } from 'zod';

const count = z.number().int().nonnegative();

const threadSchema = z.object({
  thread: z.string(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  answerFrom: z.enum(['result', 'message', 'none']),
  hasAnswer: z.boolean(),
  envelope: count,
  used: count,
  usedPath: count,
  filesReturned: count,
  filesUsed: count,
  calls: z.array(z.object({ id: z.string(), envelope: count, used: count, usedPath: count, files: count, filesUsed: count })),
  files: z.array(z.object({ path: z.string(), chars: count, via: z.enum(['path', 'symbol']).nullable(), symbol: z.string().optional() })),
});

export const allocationSectionSchema = z.object({
  /** The probe tool whose responses are allocated (sufficiency's). */
  probe: z.string(),
  /** Per session, its threads that returned a file section: the main thread first. */
  bySession: z.array(z.object({ session: z.string(), threads: z.array(threadSchema) })),
});

export type AllocationSection = z.infer<typeof allocationSectionSchema>;
