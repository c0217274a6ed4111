// The default stage array, for callers who spread it into their own
// `pipeline(source, ...stages(opts), sink)`.
import type { Transform } from 'node:stream';
import { parse } from './parse.js';
import { normalize } from './normalize.js';
import type { NormalizeOptions } from '../lib/dialects/session-normalizer.js';
import { demux } from './demux.js';
import { delegation } from './delegation.js';
import type { SufficiencyOptions } from '../lib/analyses/sufficiency/analyzer.js';
import { sufficiency } from './sufficiency.js';
import { grade } from './grade.js';
import { tokens } from './usage.js';
import type { GradeOptions } from '../lib/analyses/grade/options.js';

export interface StagesOptions {
  normalize?: NormalizeOptions;
  /** Sufficiency runs unless this is false. */
  sufficiency?: SufficiencyOptions | false;
  /** Grading runs when given (see `gradeOptions`). */
  grade?: GradeOptions;
}

/** parse → normalize → demux → delegation → sufficiency [→ grade] → tokens, after `lines` or a multi-file source. */
export function stages(opts: StagesOptions = {}): Transform[] {
  const out = [parse(), normalize(opts.normalize), demux(), delegation()];
  if (opts.sufficiency !== false) out.push(sufficiency(opts.sufficiency));
  if (opts.grade) out.push(grade(opts.grade));
  out.push(tokens());
  return out;
}
