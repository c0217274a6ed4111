// Runs transcripts through the real stages in memory, in whatever chunk
// sizes a test asks for, and returns the report and every stream item.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lines } from '../../transforms/lines.js';
import { stages } from '../../transforms/pipeline.js';
import type { NormalizeOptions } from '../../lib/dialects/session-normalizer.js';
import { readSessions } from '../../lib/io/source.js';
import type { SessionInput } from '../../lib/io/inputs.js';
import { ReportBuilder } from '../../lib/report/index.js';
import type { Report } from '../../lib/report/index.js';
import { builtInAnalyses } from '../../lib/analyses/index.js';
import type { BuiltInChoice } from '../../lib/analyses/index.js';
import type { SufficiencyFinding } from '../../lib/analyses/sufficiency/items.js';
import type { StreamItem } from '../../lib/core/items.js';

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

/** What a test runs: the normalizer's options and the built-in analyses it picks. */
export interface TestOptions extends BuiltInChoice {
  normalize?: NormalizeOptions;
}

export const CHUNK_SIZES: Array<number | 'random'> = [1, 3, 7, 64 * 1024, 'random'];

async function collect(source: Readable, opts: TestOptions, head: Array<NodeJS.ReadWriteStream>): Promise<Analysis> {
  const items: StreamItem[] = [];
  const analyses = builtInAnalyses(opts);
  const builder = new ReportBuilder({ analyses });
  const sink = new Writable({
    objectMode: true,
    write(item: StreamItem, _e, cb) {
      items.push(item);
      builder.add(item);
      cb();
    },
  });
  await pipeline([source, ...head, ...stages({ normalize: opts.normalize, analyses }), sink]);
  const findings = items.filter((i): i is SufficiencyFinding => 'analysis' in i && i.analysis === 'sufficiency' && i.kind === 'finding');
  return { report: builder.build(), items, findings };
}

/** One transcript (text or bytes) as a single stream, like stdin. */
export function analyze(input: string | Buffer, opts: TestOptions = {}, chunk: number | 'random' = 64 * 1024, file = '-'): Promise<Analysis> {
  const buf = typeof input === 'string' ? Buffer.from(input) : input;
  return collect(Readable.from(chunked(buf, chunk)), opts, [lines({ file })]);
}

/** One input read as the CLI reads stdin: sniffed, then split into lines or walked as a document. */
export function analyzeSource(input: string | Buffer, opts: TestOptions = {}, chunk: number | 'random' = 64 * 1024): Promise<Analysis> {
  const buf = typeof input === 'string' ? Buffer.from(input) : input;
  return collect(readSessions([{ key: '-', files: ['-'] }], { stdin: Readable.from(chunked(buf, chunk)) }), opts, []);
}

/** Sessions of files on disk, through the multi-file source the CLI uses. */
export function analyzeFiles(sessions: SessionInput[], opts: TestOptions = {}): Promise<Analysis> {
  return collect(readSessions(sessions), opts, []);
}
