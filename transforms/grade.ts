// Trajectory grading as a stage (logic: lib/analyses/grade/logic.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { Grader } from '../lib/analyses/grade/logic.js';
import type { GradeOptions } from '../lib/analyses/grade/options.js';

export function grade(options: GradeOptions): Transform {
  return objectStage(new Grader(options));
}
