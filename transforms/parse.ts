// Lines to parsed JSON objects as a stage (logic: lib/core/parse-line.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { parseLogic } from '../lib/core/parse-line.js';

export function parse(): Transform {
  return objectStage(parseLogic);
}
