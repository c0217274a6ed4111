// The action graph's counter as a stage (logic: lib/analyses/graph/logic.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { GraphCounter } from '../lib/analyses/graph/logic.js';
import type { GraphAccumulator, Side } from '../lib/analyses/graph/accumulate.js';

export function graph(acc: GraphAccumulator, side: Side): Transform {
  return objectStage(new GraphCounter(acc, side));
}
