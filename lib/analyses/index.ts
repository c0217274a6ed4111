// The analyses a report holds, in report order. Adding one is its folder and
// one line here.
import type { Analysis, Configured, SectionsOf } from './types.js';
import { configure } from './types.js';
import type { SufficiencyOptions } from './sufficiency/options.js';
import type { GradeOptions } from './grade/options.js';
import { sufficiencyAnalysis } from './sufficiency/index.js';
import { gradeAnalysis } from './grade/index.js';
import { usageAnalysis } from './usage/index.js';
import { occupancyAnalysis } from './occupancy/index.js';
import { occupancyConfig } from './occupancy/config.js';
import type { OccupancyOptions } from './occupancy/options.js';
import { allocationAnalysis } from './allocation/index.js';
import { calibrationAnalysis } from './calibration/index.js';
import type { CalibrationSettings } from './calibration/options.js';
import type { AllocationOptions } from './allocation/options.js';
import { DEFAULT_PRICES } from '../core/model-prices.js';
import { sufficiencyConfig } from './sufficiency/config.js';
import { gradeConfig } from './grade/config.js';
import { usageConfig } from './usage/config.js';
import type { UsageOptions } from './usage/options.js';

const BUILT_IN = [occupancyAnalysis, sufficiencyAnalysis, allocationAnalysis, gradeAnalysis, calibrationAnalysis, usageAnalysis] as const;

export const ANALYSES: readonly Analysis[] = BUILT_IN as readonly Analysis[];

/** The sections of the built-in analyses, typed, for code that reads a report. */
export type BuiltInSections = SectionsOf<typeof BUILT_IN>;

/** The built-in analyses' keys in agent-eval.yaml, as one zod shape (their `config`, typed). */
export const BUILT_IN_CONFIG = { ...sufficiencyConfig, ...gradeConfig, ...usageConfig, ...occupancyConfig };

export function analysisNamed(name: string, analyses: readonly Analysis[] = ANALYSES): Analysis | undefined {
  return analyses.find((a) => a.name === name);
}

export { occupancyAnalysis, sufficiencyAnalysis, allocationAnalysis, gradeAnalysis, calibrationAnalysis, usageAnalysis };

export interface BuiltInChoice {
  /** Residual context occupancy runs when given (its window). */
  occupancy?: OccupancyOptions;
  /** Sufficiency runs unless this is false. */
  sufficiency?: SufficiencyOptions | false;
  /** Allocation efficiency runs when given (the probe and marker sufficiency uses). */
  allocation?: AllocationOptions;
  /** Grading runs when given (see `gradeOptions`). */
  grade?: GradeOptions;
  /** Calibration runs when given, after grading (whose results it reads). */
  calibration?: CalibrationSettings;
  /** Usage always runs; its price table (default: the built-in one). */
  usage?: UsageOptions;
}

/** The built-in analyses, configured: occupancy (when given), sufficiency (unless false), allocation, grading and calibration (when given), usage — in report order. */
export function builtInAnalyses(o: BuiltInChoice = {}): Configured[] {
  const out: Configured[] = [];
  if (o.occupancy) out.push(configure(occupancyAnalysis, o.occupancy) as Configured);
  if (o.sufficiency !== false) out.push(configure(sufficiencyAnalysis, o.sufficiency ?? {}) as Configured);
  if (o.allocation) out.push(configure(allocationAnalysis, o.allocation) as Configured);
  if (o.grade) out.push(configure(gradeAnalysis, o.grade) as Configured);
  if (o.calibration) {
    if (!o.grade) throw new TypeError('calibration reads grading\'s results: configure grade too');
    out.push(configure(calibrationAnalysis, o.calibration) as Configured);
  }
  out.push(configure(usageAnalysis, o.usage ?? { prices: DEFAULT_PRICES }) as Configured);
  return out;
}
