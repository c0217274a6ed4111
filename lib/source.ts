// Many files as one stream: each session's segments in order, each file's
// lines between boundary records, so the stages downstream know where a
// session and a segment begin and end. Files are read as streams, one at a
// time, pulled only as fast as the pipeline consumes.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { LineSplitter } from '../transforms/lines.js';
import type { BoundaryRecord, PreRecord } from './records.js';
import type { SessionInput } from './inputs.js';

// 1 MiB reads: with 64 KiB the pipeline sat idle ~11% of the time waiting on
// the file (measured with --cpu-prof on a 200 MB transcript).
const READ_CHUNK_BYTES = 1024 * 1024;

export interface SourceOptions {
  maxLineBytes?: number;
  /** Where `-` reads from (default: process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** A file that cannot be read: reported, and the rest still read. */
  onInputError?: (file: string, err: NodeJS.ErrnoException) => void;
}

function boundary(edge: BoundaryRecord['edge'], s: SessionInput, segment: number, file: string, last = false): BoundaryRecord {
  return { type: 'boundary', edge, sessionKey: s.key, segment, file, last, stopped: false };
}

async function* records(sessions: readonly SessionInput[], opts: SourceOptions): AsyncGenerator<PreRecord> {
  for (const s of sessions) {
    for (let i = 0; i < s.files.length; i++) {
      const file = s.files[i]!;
      yield boundary('segment_start', s, i + 1, file);
      const splitter = new LineSplitter({ file, maxLineBytes: opts.maxLineBytes });
      const out: PreRecord[] = [];
      const push = (x: PreRecord): void => {
        out.push(x);
      };
      try {
        const input = file === '-' ? (opts.stdin ?? process.stdin) : createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
        for await (const chunk of input) {
          splitter.write(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer), push);
          if (out.length) {
            yield* out;
            out.length = 0;
          }
        }
      } catch (err) {
        // Stopped from downstream (a reader left, SIGINT): not the file's fault.
        if ((err as Error).name === 'AbortError') return;
        opts.onInputError?.(file, err as NodeJS.ErrnoException);
      }
      splitter.end(push);
      yield* out;
      yield boundary('segment_end', s, i + 1, file, i === s.files.length - 1);
    }
  }
}

/** An object stream of boundary, line and diagnostic records for `parse`. */
export function readSessions(sessions: readonly SessionInput[], opts: SourceOptions = {}): Readable {
  return Readable.from(records(sessions, opts), { objectMode: true, highWaterMark: 8 });
}
