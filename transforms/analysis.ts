// Any analysis as a stage: its per-event logic for one stream.
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import type { Configured } from '../lib/analyses/types.js';

export function analysisStage(c: Configured): Transform {
  return objectStage(c.analysis.logic(c.options));
}
