// The action-graph analyzer as a stage: every item passes through unchanged
// while its tool calls are counted into a shared accumulator, so one
// accumulator can read production traces, then eval traces, then be built.
import type { StreamItem } from '../../core/items.js';
import type { Push, StageLogic } from '../../core/stage.js';
import type { GraphAccumulator, Side } from './accumulate.js';

export class GraphCounter implements StageLogic<StreamItem, StreamItem> {
  readonly #acc: GraphAccumulator;
  readonly #side: Side;

  constructor(acc: GraphAccumulator, side: Side) {
    this.#acc = acc;
    this.#side = side;
  }

  step(item: StreamItem, push: Push<StreamItem>): void {
    this.#acc.add(item, this.#side);
    push(item);
  }
}
