// bytes → line records, as a stage (logic: lib/core/line-splitter.ts).
import { Transform } from 'node:stream';
import type { Push } from '../lib/core/stage.js';
import { EVENT_HIGH_WATER_MARK } from '../lib/core/stage.js';
import { LineSplitter } from '../lib/core/line-splitter.js';
import type { LinesOptions, LinesOutput } from '../lib/core/line-splitter.js';

/** A Transform from bytes (or strings) to line records and `line_too_long` diagnostics. */
export function lines(opts: LinesOptions): Transform {
  const splitter = new LineSplitter(opts);
  const t: Transform = new Transform({
    writableObjectMode: false,
    readableObjectMode: true,
    readableHighWaterMark: EVENT_HIGH_WATER_MARK,
    transform(chunk: Buffer | string, _enc, cb) {
      splitter.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, push);
      cb();
    },
    flush(cb) {
      splitter.end(push);
      cb();
    },
  });
  const push: Push<LinesOutput> = (x) => {
    t.push(x);
  };
  return t;
}
