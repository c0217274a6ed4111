// Token usage per thread as a stage (logic: lib/analyses/usage/counter.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { TokenCounter } from '../lib/analyses/usage/counter.js';

export function tokens(): Transform {
  return objectStage(new TokenCounter());
}
