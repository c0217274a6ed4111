// Token usage per thread as a stage (logic: lib/analyses/usage/counter.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { UsageCounter } from '../lib/analyses/usage/counter.js';

export function usage(): Transform {
  return objectStage(new UsageCounter());
}
