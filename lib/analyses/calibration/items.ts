// What calibration adds to the stream: each graded run's measures, and per
// session the match counts of the config's patterns (what grading counted).
import type { AnalysisItem } from '../../core/items.js';
import type { PatternStat } from '../grade/items.js';
import type { RunMeasure } from './measure.js';

export const CALIBRATION = 'calibration';

export type CalibrationResult = AnalysisItem<{ readonly measure: RunMeasure }, 'result'>;
export type CalibrationSummary = AnalysisItem<{ readonly patterns: Record<string, PatternStat> }, 'summary'>;
export type CalibrationItem = CalibrationResult | CalibrationSummary;
