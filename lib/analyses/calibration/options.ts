// What a calibration is computed under: the config's current thresholds and
// patterns (to count what they flag now and what they never exercise), the
// rules for suggesting (sample sizes, the share), and when and by what
// version it was made. Kept in the section so a merged section is derived
// again exactly as a single run's.
import { z } from 'zod';
import type { GradeOptions } from '../grade/options.js';
import type { OptionSources } from '../registration.js';
import { packageVersion } from '../../core/version.js';

const count = z.number().int().nonnegative();

export const calibrationSettingsSchema = z.object({
  /** The config file, or "built-in defaults". */
  config: z.string(),
  stepBudget: count,
  retryThreshold: count,
  /** Tasks' own thresholds from the config, as [task, {stepBudget?, retryThreshold?}] pairs (task names are the inputs'). */
  taskThresholds: z.array(z.tuple([z.string(), z.object({ stepBudget: count.optional(), retryThreshold: count.optional() })])),
  forbiddenTools: z.array(z.string()),
  mustPrecede: z.array(z.tuple([z.string(), z.string()])),
  minTaskRuns: z.number().int().positive(),
  minRuns: z.number().int().positive(),
  maxFlagged: z.number().min(0).max(1),
  /** YYYY-MM-DD, UTC. */
  date: z.string(),
  version: z.string(),
});

export type CalibrationSettings = z.infer<typeof calibrationSettingsSchema>;

/** The calibration's settings from grading's options, and the day and version it is made by. */
export function calibrationSettings(o: GradeOptions, made: { readonly date: string; readonly version: string }): CalibrationSettings {
  return {
    config: o.config,
    stepBudget: o.stepBudget,
    retryThreshold: o.retryThreshold,
    taskThresholds: [...o.taskThresholds].map(([task, t]) => [task, { ...t }] as [string, { stepBudget?: number; retryThreshold?: number }]),
    forbiddenTools: o.forbidden.map((p) => p.source),
    mustPrecede: o.mustPrecede.map(([a, b]) => [a.source, b.source] as [string, string]),
    minTaskRuns: o.calibrationRules.minTaskRuns,
    minRuns: o.calibrationRules.minRuns,
    maxFlagged: o.calibrationRules.maxFlagged,
    date: made.date,
    version: made.version,
  };
}

/** The UTC day of `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) when set, else of now. */
export function calibrationDate(env: Readonly<Record<string, string | undefined>>, now = Date.now()): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  const ms = epoch !== undefined && /^\d{1,15}$/.test(epoch) ? Number(epoch) * 1000 : now;
  return new Date(ms).toISOString().slice(0, 10);
}

/** A run's settings: grading's options (configured before it), the run's day (today, unless it says), this version. */
export function calibrationOptionsFrom({ optionsOf, date }: OptionSources): CalibrationSettings {
  return calibrationSettings(optionsOf('grade') as GradeOptions, { date: date ?? calibrationDate({}), version: packageVersion() });
}
