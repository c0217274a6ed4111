// Parsed records to canonical events as a stage (logic: lib/dialects/session-normalizer.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { Normalizer } from '../lib/dialects/session-normalizer.js';
import type { NormalizeOptions } from '../lib/dialects/session-normalizer.js';

export function normalize(opts: NormalizeOptions = {}): Transform {
  return objectStage(new Normalizer(opts));
}
