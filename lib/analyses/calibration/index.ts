// Calibration: is a threshold right? For each rule that thresholds a
// quantity, that quantity over a corpus of graded runs — per task and
// pooled, delivered runs and all — what the rules flag now, and the smallest
// thresholds that flag at most 1% of the delivered runs, as a config snippet
// whose `calibration` block is the evidence `verified: true` needs. It reads
// grading's results (grading must run before it). docs/calibration.md states
// the rules.
import type { Analysis } from '../types.js';
import type { Registration } from '../registration.js';
import { byRank } from '../../core/arrays.js';
import { CalibrationLogic } from './logic.js';
import { CalibrationCollector, mergeCalibration } from './collect.js';
import { calibrationSectionSchema } from './report-section.js';
import type { CalibrationSection } from './report-section.js';
import { calibrationOptionsFrom } from './options.js';
import type { CalibrationSettings } from './options.js';
import { CALIBRATION } from './items.js';
import { renderCalibrationText } from './render-text.js';
import { calibrationMarkdown } from './render-markdown.js';

export const calibrationAnalysis: Analysis<CalibrationSettings, CalibrationSection, 'calibration', 'calibration'> = {
  name: CALIBRATION,
  key: 'calibration',
  logic: () => new CalibrationLogic(),
  // It reads grading's items, never a result's text.
  resultText: () => () => false,
  section: calibrationSectionSchema,
  collector: (settings) => new CalibrationCollector(settings),
  merge: mergeCalibration,
  reorder: (c, rank, env) => mergeCalibration(undefined, { ...c, runs: byRank(c.runs, (r) => r.session, rank) }, { ...env, inFirst: () => false }),
  render: {
    text: renderCalibrationText,
    markdown: calibrationMarkdown,
    ndjsonSummary: ({ runs: _runs, patterns: _patterns, ...rest }) => rest,
  },
};

export const calibrationRegistration = {
  analysis: calibrationAnalysis,
  runs: 'when named',
  needs: { analysis: 'grade', because: "calibration reads grading's results" },
  page: 'calibration.md',
  options: calibrationOptionsFrom,
} satisfies Registration<CalibrationSettings, unknown, 'calibration'>;
