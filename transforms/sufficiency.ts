// Tool-response sufficiency as a stage (logic: lib/analyses/sufficiency/logic.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { SufficiencyAnalyzer } from '../lib/analyses/sufficiency/logic.js';
import type { SufficiencyOptions } from '../lib/analyses/sufficiency/options.js';

export function sufficiency(opts: SufficiencyOptions = {}): Transform {
  return objectStage(new SufficiencyAnalyzer(opts));
}
