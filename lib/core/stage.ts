import { Transform } from 'node:stream';

export type Push<T> = (item: T) => void;

/**
 * The per-event logic of a stage, kept apart from streams so it can be unit
 * tested (and fused) without them: `step` sees one item and pushes zero or
 * more; `end` runs once when the input is finished.
 */
export interface StageLogic<I, O> {
  step(item: I, push: Push<O>): void;
  end?(push: Push<O>): void;
}

/**
 * After parsing, one event can hold a multi-MB tool result; a low objectMode
 * high-water mark keeps several of them from piling up in each stage's
 * buffers (throughput does not depend on it: measured, docs/benchmarks.md).
 */
export const EVENT_HIGH_WATER_MARK = 8;

export function objectStage<I, O>(logic: StageLogic<I, O>, highWaterMark = EVENT_HIGH_WATER_MARK): Transform {
  const t: Transform = new Transform({
    objectMode: true,
    highWaterMark,
    transform(item: I, _enc, cb) {
      try {
        logic.step(item, push);
      } catch (err) {
        cb(err as Error);
        return;
      }
      cb();
    },
    flush(cb) {
      try {
        logic.end?.(push);
      } catch (err) {
        cb(err as Error);
        return;
      }
      cb();
    },
  });
  const push: Push<O> = (item) => {
    t.push(item);
  };
  return t;
}

/** Runs a stage's logic over an array, for tests and for fusing stages. */
export function runLogic<I, O>(logic: StageLogic<I, O>, items: Iterable<I>): O[] {
  const out: O[] = [];
  const push: Push<O> = (x) => out.push(x);
  for (const item of items) logic.step(item, push);
  logic.end?.(push);
  return out;
}
