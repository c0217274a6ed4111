// Every reporter is the same Transform: stream items in, a ReportBuilder
// collecting them, text out — per item (if the reporter streams) and once
// at the end.
import { Transform } from 'node:stream';
import type { StreamItem } from '../lib/core/items.js';
import type { Report, ReportOptions } from '../lib/report/index.js';
import { ReportBuilder } from '../lib/report/index.js';

export type SinkOptions = ReportOptions;

/** `render` may give the final text whole, or in pieces to spare memory. */
export function reportSink(opts: SinkOptions, render: (r: Report) => string | Iterable<string>, perItem?: (item: StreamItem, builder: ReportBuilder) => string | undefined): Transform {
  const builder = new ReportBuilder(opts);
  const t: Transform = new Transform({
    writableObjectMode: true,
    readableObjectMode: false,
    transform(item: StreamItem, _enc, cb) {
      builder.add(item);
      cb(null, perItem?.(item, builder));
    },
    flush(cb) {
      const out = render(builder.build());
      if (typeof out === 'string') cb(null, out);
      else {
        for (const piece of out) t.push(piece);
        cb();
      }
    },
  });
  return t;
}
