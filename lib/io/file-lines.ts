// A file's bytes as batches of line records: what the file source hands on
// for every line-based file, a session's and each of its companions'.
import { LineSplitter } from '../core/line-splitter.js';
import type { PreRecord } from '../core/records.js';
import { RESTART } from './follow.js';

// 1 MiB reads: with 64 KiB the pipeline sat idle ~11% of the time waiting on
// the file (measured with --cpu-prof on a 200 MB transcript).
export const READ_CHUNK_BYTES = 1024 * 1024;

/** Records in batches: the lines of one read go on together, at the cost of one hand-over. */
export type Batch = PreRecord[];

/** Marks a followed file truncated or replaced: its session starts over. */
export interface Restart {
  readonly type: 'restart';
}

export interface LineOptions {
  readonly maxLineBytes?: number;
  /** Long lines that may be tool results stay bytes until read (see LinesOptions.lazy). */
  readonly lazyLines?: boolean;
}

/** A file's lines, and the diagnostics of lines too long to keep, a batch per read. */
export async function* linesOf(file: string, chunks: AsyncIterable<Buffer | typeof RESTART>, opts: LineOptions): AsyncGenerator<Batch | Restart> {
  let splitter = new LineSplitter({ file, maxLineBytes: opts.maxLineBytes, lazy: opts.lazyLines });
  let out: PreRecord[] = [];
  const push = (x: PreRecord): void => {
    out.push(x);
  };
  try {
    for await (const chunk of chunks) {
      if (chunk === RESTART) {
        // What was half-written before the cut is void.
        splitter = new LineSplitter({ file, maxLineBytes: opts.maxLineBytes, lazy: opts.lazyLines });
        yield { type: 'restart' };
        continue;
      }
      splitter.write(chunk, push);
      if (out.length) {
        const batch = out;
        out = [];
        yield batch;
      }
    }
  } finally {
    // Whatever was read before a failure is still analysed.
    splitter.end(push);
  }
  if (out.length) yield out;
}
