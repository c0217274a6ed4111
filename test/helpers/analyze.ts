// Runs transcripts through the real stages in memory, in whatever chunk
// sizes a test asks for, and returns the report and every stream item.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lines } from '../../transforms/lines.js';
import { stages } from '../../transforms/pipeline.js';
import type { StagesOptions } from '../../transforms/pipeline.js';
import { readSessions } from '../../lib/io/source.js';
import type { SessionInput } from '../../lib/io/inputs.js';
import { ReportBuilder } from '../../lib/report/report.js';
import type { Report } from '../../lib/report/report.js';
import type { StreamItem, SufficiencyFinding } from '../../lib/core/items.js';
import { DEFAULT_PROBE } from '../../lib/analyses/sufficiency/analyzer.js';

export interface Analysis {
  report: Report;
  items: StreamItem[];
  findings: SufficiencyFinding[];
}

/** Splits bytes into chunks of `size`, or of seeded random sizes when size is 'random'. */
export function chunked(buf: Buffer, size: number | 'random', seed = 1): Buffer[] {
  const out: Buffer[] = [];
  let s = seed;
  for (let i = 0; i < buf.length; ) {
    let n: number;
    if (size === 'random') {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      n = 1 + (s % 97);
    } else n = size;
    out.push(buf.subarray(i, i + n));
    i += n;
  }
  return out;
}

export const CHUNK_SIZES: Array<number | 'random'> = [1, 3, 7, 64 * 1024, 'random'];

async function collect(source: Readable, opts: StagesOptions, head: Array<NodeJS.ReadWriteStream>): Promise<Analysis> {
  const items: StreamItem[] = [];
  const builder = new ReportBuilder({ sufficiency: { probe: (opts.sufficiency || undefined)?.probe ?? DEFAULT_PROBE } });
  const sink = new Writable({
    objectMode: true,
    write(item: StreamItem, _e, cb) {
      items.push(item);
      builder.add(item);
      cb();
    },
  });
  await pipeline([source, ...head, ...stages(opts), sink]);
  const findings = items.filter((i): i is SufficiencyFinding => i.kind === 'finding');
  return { report: builder.build(), items, findings };
}

/** One transcript (text or bytes) as a single stream, like stdin. */
export function analyze(input: string | Buffer, opts: StagesOptions = {}, chunk: number | 'random' = 64 * 1024, file = '-'): Promise<Analysis> {
  const buf = typeof input === 'string' ? Buffer.from(input) : input;
  return collect(Readable.from(chunked(buf, chunk)), opts, [lines({ file })]);
}

/** One input read as the CLI reads stdin: sniffed, then split into lines or walked as a document. */
export function analyzeSource(input: string | Buffer, opts: StagesOptions = {}, chunk: number | 'random' = 64 * 1024): Promise<Analysis> {
  const buf = typeof input === 'string' ? Buffer.from(input) : input;
  return collect(readSessions([{ key: '-', files: ['-'] }], { stdin: Readable.from(chunked(buf, chunk)) }), opts, []);
}

/** Sessions of files on disk, through the multi-file source the CLI uses. */
export function analyzeFiles(sessions: SessionInput[], opts: StagesOptions = {}): Promise<Analysis> {
  return collect(readSessions(sessions), opts, []);
}
