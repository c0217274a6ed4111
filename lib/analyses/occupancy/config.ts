// Occupancy's keys in agent-eval.yaml: the `occupancy` namespace.
import { z } from 'zod';

export const occupancyConfig = {
  occupancy: z.strictObject({ window: z.number().int().positive().optional() }).nullable().optional(),
};

export type OccupancyConfig = z.infer<z.ZodObject<typeof occupancyConfig>>;
