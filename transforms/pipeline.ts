// The default stage array, for callers who spread it into their own
// `pipeline(source, ...stages(opts), sink)`.
import type { Transform } from 'node:stream';
import { parse } from './parse.js';
import { normalize } from './normalize.js';
import type { NormalizeOptions } from '../lib/dialects/session-normalizer.js';
import { demux } from './demux.js';
import { delegation } from './delegation.js';
import { analysisStage } from './analysis.js';
import type { Configured } from '../lib/analyses/types.js';
import { builtInAnalyses } from '../lib/analyses/index.js';

export interface StagesOptions {
  normalize?: NormalizeOptions;
  /** The analyses to run, in order (default: `builtInAnalyses()`: sufficiency and usage). */
  analyses?: readonly Configured[];
}

/** parse → normalize → demux → delegation → each analysis, after `lines` or a multi-file source. */
export function stages(opts: StagesOptions = {}): Transform[] {
  const out = [parse(), normalize(opts.normalize), demux(), delegation()];
  for (const c of opts.analyses ?? builtInAnalyses()) out.push(analysisStage(c));
  return out;
}
