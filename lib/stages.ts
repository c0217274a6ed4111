// The default stage array, for callers who spread it into their own
// `pipeline(source, ...stages(opts), sink)`.
import type { Transform } from 'node:stream';
import { parse } from '../transforms/parse.js';
import { normalize } from '../transforms/normalize/index.js';
import { demux } from '../transforms/demux.js';
import { delegation } from '../transforms/delegation.js';
import type { SufficiencyOptions } from '../transforms/sufficiency.js';
import { sufficiency } from '../transforms/sufficiency.js';

export interface StagesOptions {
  sufficiency?: SufficiencyOptions;
}

/** parse → normalize → demux → delegation → sufficiency (after `lines` or a multi-file source). */
export function stages(opts: StagesOptions = {}): Transform[] {
  return [parse(), normalize(), demux(), delegation(), sufficiency(opts.sufficiency)];
}
