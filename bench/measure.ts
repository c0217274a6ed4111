// One benchmark case, alone in its own process so that the peak RSS is that
// case's and nothing else's. Prints one JSON line:
//   {mode, file, bytes, seconds, mbPerSec, maxRssMB, ...}
//
//   node dist/bench/measure.js bare|pipeline FILE   (compiled: no loader in the numbers)
//
// bare     — the floor: read 64 KiB chunks, split on LF linearly, JSON.parse
//            each line, count. Nothing the CLI does can be cheaper.
// ndjson   — the CLI itself, `sufficiency --reporter ndjson` (main() from
//            dist), stdout discarded: the streaming pipeline, whose memory
//            must not grow with the transcript.
// json     — the default command, sufficiency and grading, with `--json`:
//            its report holds one record per probe call and per flag, so its
//            memory grows with those.
// grade    — `grade --reporter ndjson` on a traces.json document, streamed.
// graph    — `graph build --prod FILE`: the action graph's counts, graph.json
//            to stdout (discarded); memory is the graph, not the transcript.
// noop     — no work: the RSS of node alone, to read the others against.
//
// MB are 10^6 bytes throughout (file sizes, MB/s, RSS). `seconds` excludes
// module loading, which is a constant, not a rate.
import { createReadStream, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';

const MB = 1e6;

async function bare(file: string): Promise<number> {
  let events = 0;
  let pending: Buffer[] = [];
  const parse = (text: string): void => {
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
    if (JSON.parse(text) !== null) events++;
  };
  // fs streams hand out a fresh buffer per read, so holding subarrays of it is safe.
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      if (pending.length > 0) {
        pending.push(chunk.subarray(start, nl));
        parse(Buffer.concat(pending).toString('utf8'));
        pending = [];
      } else {
        parse(chunk.toString('utf8', start, nl));
      }
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) parse(Buffer.concat(pending).toString('utf8'));
  return events;
}

async function pipeline(file: string, reporter: string[]): Promise<Record<string, number>> {
  const { main } = await import('../lib/cli/main.js');
  let reportBytes = 0;
  const stdout = new Writable({
    write(chunk: Buffer, _enc, cb) {
      reportBytes += chunk.length;
      cb();
    },
  });
  const t0 = performance.now();
  const exitCode = await main([...reporter, file], { stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env });
  return { seconds: (performance.now() - t0) / 1000, exitCode, reportBytes };
}

async function measure(mode: string, file: string): Promise<Record<string, unknown>> {
  if (mode === 'noop') return { mode, seconds: 0 };
  const bytes = statSync(file).size;
  let out: Record<string, unknown>;
  if (mode === 'bare') {
    const t0 = performance.now();
    const events = await bare(file);
    out = { seconds: (performance.now() - t0) / 1000, events };
  } else if (mode === 'ndjson') {
    out = await pipeline(file, ['sufficiency', '--reporter', 'ndjson']);
  } else if (mode === 'json') {
    out = await pipeline(file, ['--json']);
  } else if (mode === 'grade') {
    out = await pipeline(file, ['grade', '--reporter', 'ndjson']);
  } else if (mode === 'graph') {
    out = await pipeline(file, ['graph', 'build', '-q', '--prod']);
  } else {
    throw new Error(`unknown mode: ${mode}`);
  }
  const seconds = out.seconds as number;
  return { mode, file, bytes, ...out, mbPerSec: bytes / MB / seconds };
}

const [mode = '', file = ''] = process.argv.slice(2);
const result = await measure(mode, file);
// maxRSS is in KiB; read last, so it covers the whole run.
result.maxRssMB = (process.resourceUsage().maxRSS * 1024) / MB;
process.stdout.write(`${JSON.stringify(result)}\n`);
