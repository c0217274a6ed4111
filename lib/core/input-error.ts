// An input that could not be used as a whole (unreadable, no transcript in
// it): every report lists them, and each makes the exit code 2.
import { z } from 'zod';

export const inputErrorSchema = z.object({ file: z.string(), message: z.string() });
export type InputErrorItem = z.infer<typeof inputErrorSchema>;
