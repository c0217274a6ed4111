// The default stage array, for callers who spread it into their own
// `pipeline(source, ...stages(opts), sink)`.
import type { Transform } from 'node:stream';
import { parse } from '../transforms/parse.js';
import { normalize } from '../transforms/normalize/index.js';
import type { NormalizeOptions } from '../transforms/normalize/index.js';
import { demux } from '../transforms/demux.js';
import { delegation } from '../transforms/delegation.js';
import type { SufficiencyOptions } from '../transforms/sufficiency.js';
import { sufficiency } from '../transforms/sufficiency.js';
import { grade } from '../transforms/grade.js';
import { tokens } from '../transforms/tokens.js';
import type { GradeOptions } from './grade/options.js';

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
