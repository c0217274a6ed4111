// Token usage per thread as a stage (logic: lib/analyses/usage/logic.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { UsageCounter } from '../lib/analyses/usage/logic.js';

export function usage(): Transform {
  return objectStage(new UsageCounter());
}
