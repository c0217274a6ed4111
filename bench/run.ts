// `npm run bench`: how close the CLI comes to the cost of reading its input.
// Every figure is a whole process (node's startup included) timed from the
// outside, against the bare loop (read, split, JSON.parse every line) on the
// same file in the same run; the modes of a case are interleaved, run after
// run, so drift on a shared machine hits them alike, and each figure is the
// median of its runs. The figures are printed and written into
// docs/benchmarks.md (between its `bench:` markers) unless --dry.
//
//   npm run bench -- [--sizes 200MB,1GB] [--runs 3] [--dry] [--keep]
//                    [--input FILE]... [--bare-script FILE] [--only html|codex]
// --only html measures the html page alone and writes its block (bench-html) of docs/benchmarks.md;
// --only codex, a generated Codex rollout (bench-codex).
// --input measures existing transcripts instead of generating them;
// --bare-script is another floor to measure against (any script that takes FILE).
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { generate, parseSize } from './generate.js';
import { generateTraces } from './generate-traces.js';
import { measureLatency } from './latency.js';
import { CHROMIUM, measurePage } from './html-page.js';
import { codexCase } from './codex-case.js';
import type { PageFigures } from './html-page.js';
import { ROW_PX } from '../sinks/html/page-style.js';

// This file runs from dist/bench/.
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const OUT = join(ROOT, 'bench', 'out');
const MEASURE = join(ROOT, 'dist', 'bench', 'measure.js');
const STAGE_TIMES = join(ROOT, 'dist', 'bench', 'stage-times.js');
const BIN = join(ROOT, 'dist', 'bin', 'agent-eval-stream.js');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const MB = 1e6;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '200MB,1GB' },
    runs: { type: 'string', default: '3' },
    input: { type: 'string', multiple: true },
    'bare-script': { type: 'string' },
    many: { type: 'string', default: '200MB' },
    sessions: { type: 'string', default: '40' },
    lost: { type: 'string', default: '40MB' },
    traces: { type: 'string', default: '200MB' },
    'long-line': { type: 'string', default: '50MB' },
    /** The html page's run: `gen-bench.mjs` at this many MB makes about 100,000 steps. */
    'html-mb': { type: 'string', default: '570' },
    only: { type: 'string' },
    dry: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const BARE = values['bare-script'] ?? join(ROOT, 'dist', 'bench', 'bare.js');

interface Run {
  readonly seconds: number;
  readonly maxRssMB: number;
}
/** A command of a case: a script and its arguments; exit codes it may end with. */
interface Mode {
  readonly name: string;
  readonly args: (file: string) => string[];
  readonly script?: string;
  readonly nodeFlags?: string[];
  readonly exits?: readonly number[];
}

const cli = (name: string, ...args: string[]): Mode => ({ name, args: (f) => [...args, f], exits: [0, 3] });
const BARE_MODE: Mode = { name: 'bare', script: BARE, args: (f) => [f] };
const NODE_ALONE: Mode = { name: 'node alone', script: 'noop', args: () => [] };
const TRANSCRIPT_MODES: Mode[] = [
  BARE_MODE,
  cli('default --json', '--json', '-q'),
  cli('sufficiency --json', 'sufficiency', '--json', '-q'),
  cli('grade --json', 'grade', '--json', '-q'),
  cli('ndjson', '--reporter', 'ndjson', '-q'),
  cli('text', '-q'),
  cli('graph build', 'graph', 'build', '-q', '--prod'),
];

function say(s = ''): void {
  process.stdout.write(`${s}\n`);
}

function once(mode: Mode, file: string): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...(mode.nodeFlags ?? []), MEASURE, mode.script ?? BIN, ...mode.args(file)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 24,
  });
  const seconds = (performance.now() - t0) / 1000;
  const line = r.output[3]?.toString().trim();
  if (!line) throw new Error(`${mode.name} on ${file}: ended by ${r.signal ?? `exit ${r.status}`}: ${r.stderr.toString().slice(-400)}`);
  const m = JSON.parse(line) as { maxRssMB: number; exitCode: number };
  if (!(mode.exits ?? [0]).includes(m.exitCode)) throw new Error(`${mode.name} on ${file}: exit ${m.exitCode}: ${r.stderr.toString().slice(-400)}`);
  return { seconds, maxRssMB: m.maxRssMB };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Every mode `RUNS` times, interleaved; the median time and the largest peak RSS of each. */
function measureCase(label: string, modes: readonly Mode[], file: string, runs = RUNS): Map<string, Run> {
  const all = new Map<string, Run[]>(modes.map((m) => [m.name, []]));
  for (let i = 0; i < runs; i++) {
    for (const m of modes) {
      const r = once(m, file);
      all.get(m.name)!.push(r);
      say(`  ${label}  ${m.name.padEnd(20)} run ${i + 1}: ${r.seconds.toFixed(2)} s, peak RSS ${r.maxRssMB.toFixed(0)} MB`);
    }
  }
  return new Map([...all].map(([k, rs]) => [k, { seconds: median(rs.map((r) => r.seconds)), maxRssMB: Math.max(...rs.map((r) => r.maxRssMB)) }]));
}

function sizeOf(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + statSync(join(path, f)).size, 0) : s.size;
}

async function writeGenerated(file: string, size: number, seed: number, longLine?: number): Promise<void> {
  const stream = createWriteStream(file);
  await generate({ size, seed, longLine }, stream);
  stream.end();
  await finished(stream);
}

/** The file without the first result of a probe call: one lost line, as a crash or a cap would lose it. */
async function withoutOneProbeResult(from: string, to: string): Promise<void> {
  const out = createWriteStream(to);
  const probes = new Set<string>();
  let dropped = false;
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    if (!dropped) {
      for (const m of line.matchAll(/"id":"([^"]+)","name":"mcp__codegraph__codegraph_explore"/g)) probes.add(m[1]!);
      const answered = /"tool_use_id":"([^"]+)"/.exec(line)?.[1];
      if (answered !== undefined && probes.has(answered)) {
        dropped = true;
        continue;
      }
    }
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.end();
  await finished(out);
}

const fmt = (x: number, d = 2): string => x.toFixed(d);
const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];

interface StageRun {
  readonly totalMs: number;
  readonly timingMs: number;
  readonly stages: Array<[string, number]>;
}

/** The stages' medians as a share of the bare loop's time, and what the command would reach were parsing free. */
function stageTable(name: string, bareMs: number, runs: readonly StageRun[]): string[] {
  const names = runs[0]!.stages.map(([n]) => n);
  const ms = names.map((_, i) => median(runs.map((r) => r.stages[i]![1])));
  const rest = median(runs.map((r) => r.totalMs - r.timingMs - r.stages.reduce((a, [, x]) => a + x, 0)));
  const afterParse = ms.slice(1).reduce((a, x) => a + x, 0);
  const share = (x: number): string => fmt(x / bareMs);
  return [
    `### Where the time goes: the default command's stages on ${name}`,
    '',
    ...table(
      ['stage', 'time', "share of the bare loop's time"],
      [
        ...names.map((n, i) => [n, `${fmt(ms[i]!, 0)} ms`, share(ms[i]!)]),
        ['every stage after parsing', `${fmt(afterParse, 0)} ms`, share(afterParse)],
        ['reading and splitting, the stream machinery, building and writing the report', `${fmt(rest, 0)} ms`, share(rest)],
        ["the bare loop (read, split, `JSON.parse` every line), node's startup taken off", `${fmt(bareMs, 0)} ms`, '1.00'],
      ],
    ),
    '',
    `In-process, medians of ${runs.length} runs, each stage's own time net of its timers (bench/stage-times.ts), against the bare loop's time less node's startup (both interleaved with it). Were parsing free, the default command would run at ${fmt(bareMs / (afterParse + rest))} of the bare loop (startup left out of both; the harness keeps one report where the CLI also keeps one for its exit code, so if anything this flatters the command).`,
  ];
}

/** The shared generator the html page's limits are stated for (a 100,000-step run at 570 MB), beside the repository as the tests find it. */
const GEN_BENCH = join(ROOT, '..', 'shared', 'bench', 'gen-bench.mjs');

/**
 * The html reporter on a 100,000-step run: writing the page (time, peak
 * RSS) beside `--json` on the same file, the page's size against the
 * transcript's, and the page in Chromium (first rows, every row, rows at the
 * last step). Skipped, and said, without the generator or a browser.
 */
async function htmlCase(md: string[], target: (ok: boolean, what: string, detail: string) => void, made: string[]): Promise<void> {
  md.push('');
  if (!existsSync(GEN_BENCH) || !existsSync(CHROMIUM)) {
    md.push(`Not measured: it needs ${relative(ROOT, GEN_BENCH)} and a browser at ${CHROMIUM}.`);
    return;
  }
  const file = join(OUT, `gen-bench-${values['html-mb']}.jsonl`);
  const page = join(OUT, `gen-bench-${values['html-mb']}.html`);
  made.push(file, page);
  const gen = spawnSync(process.execPath, [GEN_BENCH, file, values['html-mb']!], { stdio: 'inherit' });
  if (gen.status !== 0) throw new Error(`${GEN_BENCH} failed`);
  const written = measureCase(
    'html',
    [cli('--json', '--json', '-q'), { name: 'html', args: (f) => ['--reporter', `html=${page}`, '-q', f], exits: [0, 3] }],
    file,
  );
  const ratio = sizeOf(page) / sizeOf(file);
  const views: PageFigures[] = [];
  for (let i = 0; i < RUNS; i++) {
    const v = await measurePage(page, ROW_PX);
    views.push(v);
    say(
      `  html  page run ${i + 1}: first rows ${fmt(v.firstRowsMs, 0)} ms, every row ${fmt(v.readyMs, 0)} ms, heap ${fmt(v.heapMB, 0)} MB, ${v.rowsAtEnd} rows at the end`,
    );
  }
  const first = median(views.map((v) => v.firstRowsMs));
  const ready = median(views.map((v) => v.readyMs));
  const v = views[0]!;
  const [j, h] = [written.get('--json')!, written.get('html')!];
  md.push(
    ...table(
      ['figure', 'value'],
      [
        ['transcript', `${fmt(sizeOf(file) / MB, 0)} MB, ${v.steps.toLocaleString('en-US')} steps in its main thread`],
        ['`--json -q`: time, peak RSS', `${fmt(j.seconds, 1)} s, ${fmt(j.maxRssMB, 0)} MB`],
        ['`--reporter html=FILE -q`: time, peak RSS', `${fmt(h.seconds, 1)} s, ${fmt(h.maxRssMB, 0)} MB`],
        ['the page: size, share of the transcript', `${fmt(sizeOf(page) / MB, 0)} MB, ${fmt(ratio)}`],
        ['Chromium: first rows drawn', `${fmt(first / 1000)} s`],
        ['Chromium: every row listed', `${fmt(ready / 1000)} s`],
        ['Chromium: script heap', `${fmt(v.heapMB, 0)} MB`],
        ['rows in the list at the last step', `${v.rowsAtEnd} (a screenful: ${v.screenful})`],
      ],
    ),
  );
  target(first < 2000, 'html: the first screen of a 100,000-step run drawn in under 2 s', `${fmt(first / 1000)} s`);
  target(ratio <= 0.2, "html: the page at most a fifth of the transcript's size", fmt(ratio));
  target(
    views.every((x) => x.rowsAtEnd <= x.screenful && x.lastDrawn),
    'html: at the last step, no more than a screenful of rows',
    `${v.rowsAtEnd} of at most ${v.screenful}`,
  );
}

function header(): string {
  return `On ${availableParallelism()} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; medians of ${RUNS} interleaved runs (startup: of ${Math.max(RUNS, 10)}); whole processes, startup included; peak RSS is the largest of the runs, node's own included.`;
}

/** Prints a block of figures and, unless --dry, writes it into docs/benchmarks.md between its `<!-- NAME:start -->` and `<!-- NAME:end -->` markers. */
function writeBlock(name: string, text: string): void {
  say(`\n${text}`);
  if (values.dry) return;
  const doc = readFileSync(DOC, 'utf8');
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const [a, b] = [doc.indexOf(start), doc.indexOf(end)];
  if (a === -1 || b < a) throw new Error(`${relative(ROOT, DOC)} has no ${start} … ${end} markers`);
  writeFileSync(DOC, `${doc.slice(0, a)}${start}\n${text}\n${doc.slice(b)}`);
  say(`\nwritten to ${relative(ROOT, DOC)} (${name})`);
}

/** The html page's figures and targets: a block of their own, which `--only html` rewrites alone. */
async function htmlBlock(made: string[]): Promise<void> {
  const md: string[] = [];
  const targets: string[] = [];
  await htmlCase(md, (ok, what, detail) => targets.push(`- ${ok ? 'met' : '**missed**'}: ${what} (${detail})`), made);
  writeBlock('bench-html', [header(), ...md, '', ...targets].join('\n'));
}

/** A Codex rollout against the bare loop: a block of its own, which `--only codex` rewrites alone. */
async function codexBlock(made: string[]): Promise<void> {
  const file = join(OUT, 'codex-rollout.jsonl');
  made.push(file);
  const md = await codexCase<Mode, Run>(
    {
      file,
      modes: { bare: BARE_MODE, commands: [cli('--json -q FILE', '--json', '-q'), cli('grade --json -q FILE', 'grade', '--json', '-q')] },
      name: (m) => m.name,
      measure: measureCase,
      seconds: (r) => r.seconds,
      rss: (r) => r.maxRssMB,
    },
    200,
  );
  writeBlock('bench-codex', [header(), '', ...md].join('\n'));
}

async function main(): Promise<void> {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer: ${values.runs}`);
  mkdirSync(OUT, { recursive: true });
  const made: string[] = [];
  const md: string[] = [];
  const targets: string[] = [];
  const target = (ok: boolean, what: string, detail: string): void => {
    targets.push(`- ${ok ? 'met' : '**missed**'}: ${what} (${detail})`);
  };
  if (values.only !== undefined) {
    if (values.only !== 'html' && values.only !== 'codex') throw new Error(`--only: the cases it runs alone are html and codex, not ${values.only}`);
    try {
      await (values.only === 'html' ? htmlBlock(made) : codexBlock(made));
    } finally {
      if (values.keep) say(`kept: ${made.map((f) => relative(ROOT, f)).join(', ')}`);
      else for (const f of made) rmSync(f, { recursive: true, force: true });
    }
    return;
  }
  try {
    // Transcripts: every mode against the bare loop.
    const transcripts: Array<{ name: string; file: string }> = [];
    for (const f of values.input ?? []) transcripts.push({ name: basename(f), file: f });
    if (!values.input) {
      for (const s of values.sizes
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        const file = join(OUT, `transcript-${s}.jsonl`);
        await writeGenerated(file, parseSize(s), 1);
        made.push(file);
        transcripts.push({ name: s, file });
      }
    }
    const byCase = new Map<string, Map<string, Run>>();
    for (const t of transcripts) byCase.set(t.name, measureCase(t.name, TRANSCRIPT_MODES, t.file));
    md.push('### Transcripts: throughput as a share of the bare loop', '');
    md.push(
      ...table(
        ['command', ...transcripts.map((t) => `${t.name} (${fmt(sizeOf(t.file) / MB, 0)} MB): ratio, s`), ...transcripts.map((t) => `${t.name}: peak RSS`)],
        TRANSCRIPT_MODES.map((m) => [
          m.name === 'bare' ? 'bare loop (the floor)' : `\`${m.args('FILE').join(' ')}\``,
          ...transcripts.map((t) => {
            const r = byCase.get(t.name)!;
            return `${fmt(r.get('bare')!.seconds / r.get(m.name)!.seconds)}, ${fmt(r.get(m.name)!.seconds, 1)} s`;
          }),
          ...transcripts.map((t) => `${fmt(byCase.get(t.name)!.get(m.name)!.maxRssMB, 0)} MB`),
        ]),
      ),
    );
    for (const t of transcripts) {
      const r = byCase.get(t.name)!;
      const ratio = r.get('bare')!.seconds / r.get('default --json')!.seconds;
      target(ratio >= 0.8, `${t.name}: the default command at >= 0.8 of the bare loop`, fmt(ratio));
      for (const m of TRANSCRIPT_MODES.slice(1))
        target(r.get(m.name)!.maxRssMB < 200, `${t.name}: ${m.name} peak RSS < 200 MB`, `${fmt(r.get(m.name)!.maxRssMB, 0)} MB`);
    }
    if (transcripts.length > 1) {
      const [lo, hi] = [byCase.get(transcripts[0]!.name)!, byCase.get(transcripts[transcripts.length - 1]!.name)!];
      for (const m of TRANSCRIPT_MODES.slice(1)) {
        const g = hi.get(m.name)!.maxRssMB / lo.get(m.name)!.maxRssMB - 1;
        target(
          g <= 0.1,
          `${m.name}: peak RSS within 10% from ${transcripts[0]!.name} to ${transcripts[transcripts.length - 1]!.name}`,
          `${g >= 0 ? '+' : ''}${fmt(g * 100, 0)}%`,
        );
      }
    }

    // Where the time goes: the default command's stages, each timed by itself, beside the bare loop.
    {
      const t = transcripts[0]!;
      const log = join(OUT, 'stage-times.jsonl');
      rmSync(log, { force: true });
      made.push(log);
      const r = measureCase(`${t.name} stages`, [BARE_MODE, NODE_ALONE, { name: 'stages', script: STAGE_TIMES, args: (f) => [f, log] }], t.file);
      // The harness's figures leave node's startup out: so does the floor they are set against.
      const bareMs = (r.get('bare')!.seconds - r.get(NODE_ALONE.name)!.seconds) * 1000;
      md.push(
        '',
        ...stageTable(
          t.name,
          bareMs,
          readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as StageRun),
        ),
      );
    }

    // Many files: the session pool against one thread.
    const sessions = Number(values.sessions);
    const dir = join(OUT, `many-${values.many}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    made.push(dir);
    for (let i = 1; i <= sessions; i++) await writeGenerated(join(dir, `session-${String(i).padStart(3, '0')}.jsonl`), parseSize(values.many) / sessions, i);
    const jobs = Math.max(2, availableParallelism());
    const pool = measureCase('many', [cli('--jobs 1', '--json', '-q', '--jobs', '1'), cli(`--jobs ${jobs}`, '--json', '-q', '--jobs', String(jobs))], dir);
    const speedup = pool.get('--jobs 1')!.seconds / pool.get(`--jobs ${jobs}`)!.seconds;
    md.push('', `### Many files: ${sessions} sessions, ${fmt(sizeOf(dir) / MB, 0)} MB, on ${availableParallelism()} cores`, '');
    md.push(
      ...table(
        ['command', 'time', 'speed-up', 'peak RSS'],
        [...pool].map(([k, r]) => [
          `\`--json --jobs ${k.split(' ')[1]}\``,
          `${fmt(r.seconds)} s`,
          fmt(pool.get('--jobs 1')!.seconds / r.seconds),
          `${fmt(r.maxRssMB, 0)} MB`,
        ]),
      ),
    );
    target(speedup >= 1.6, `many files: --jobs ${jobs} at >= 1.6x --jobs 1`, `${fmt(speedup)}x`);

    // Shards and merge: four shards of the same files, each as its own process, then the merge of their reports.
    const SHARDS = 4;
    const shardFile = (i: number): string => join(OUT, `shard-${i}.json`);
    for (let i = 0; i < SHARDS; i++) made.push(shardFile(i));
    const shardModes: Mode[] = [
      cli('single run', '--json', '-q', '--jobs', '1'),
      ...Array.from({ length: SHARDS }, (_, i) => ({
        name: `shard ${i}/${SHARDS}`,
        args: (f: string) => ['--json', '-q', '--jobs', '1', '--shard', `${i}/${SHARDS}`, '--reporter', `json=${shardFile(i)}`, f],
        exits: [0, 3],
      })),
    ];
    const sharded = measureCase('shards', shardModes, dir);
    const merged = measureCase(
      'merge',
      [{ name: 'merge', args: () => ['merge', '--json', ...Array.from({ length: SHARDS }, (_, i) => shardFile(i))], exits: [0, 3] }],
      '',
    );
    const whole = sharded.get('single run')!;
    const parts = [...sharded].filter(([k]) => k.startsWith('shard '));
    const slowest = Math.max(...parts.map(([, r]) => r.seconds));
    const m = merged.get('merge')!;
    md.push('', `### Shards and merge: the same ${sessions} sessions in ${SHARDS} shards`, '');
    md.push(
      ...table(
        ['step', 'time', 'peak RSS'],
        [
          ['single run, `--json --jobs 1`', `${fmt(whole.seconds)} s`, `${fmt(whole.maxRssMB, 0)} MB`],
          ...parts.map(([k, r]) => [`\`--shard ${k.split(' ')[1]}\``, `${fmt(r.seconds)} s`, `${fmt(r.maxRssMB, 0)} MB`]),
          ['`merge` of the four reports', `${fmt(m.seconds)} s`, `${fmt(m.maxRssMB, 0)} MB`],
        ],
      ),
    );
    md.push(
      '',
      `On ${SHARDS} machines: the slowest shard and the merge, ${fmt(slowest + m.seconds)} s, against ${fmt(whole.seconds)} s for one process; the shards together cost ${fmt(parts.reduce((s, [, r]) => s + r.seconds, 0) / whole.seconds)}× the single run's time (each starts node and walks every input's names).`,
    );

    // One lost probe result: no slower, no bigger.
    const intact = join(OUT, `lost-${values.lost}-intact.jsonl`);
    const lost = join(OUT, `lost-${values.lost}.jsonl`);
    await writeGenerated(intact, parseSize(values.lost), 7);
    await withoutOneProbeResult(intact, lost);
    made.push(intact, lost);
    const suff = cli('sufficiency --json', 'sufficiency', '--json', '-q');
    const lostRuns = measureCase(
      'lost',
      [
        { ...suff, name: 'intact', args: () => [...suff.args(intact)] },
        { ...suff, name: 'one result lost', args: () => [...suff.args(lost)] },
      ],
      '',
    );
    md.push('', `### One probe result lost (${values.lost})`, '');
    md.push(
      ...table(
        ['input', 'sufficiency --json', 'peak RSS'],
        [...lostRuns].map(([k, r]) => [k, `${fmt(r.seconds)} s`, `${fmt(r.maxRssMB, 0)} MB`]),
      ),
    );
    const slowdown = lostRuns.get('one result lost')!.seconds / lostRuns.get('intact')!.seconds;
    target(slowdown < 1.2, 'one lost probe result costs no more than reading the file', `${fmt(slowdown)}x the intact file's time`);

    // Startup.
    const one = join(OUT, 'one-line.jsonl');
    writeFileSync(one, `${readFileSync(intact, 'utf8').split('\n', 1)[0]}\n`);
    made.push(one);
    const start = measureCase(
      'startup',
      [NODE_ALONE, { name: '--version', args: () => ['--version'] }, { ...cli('--json, a one-line file', '--json', '-q'), exits: [2] }],
      one,
      Math.max(RUNS, 10),
    );
    md.push('', '### Startup', '');
    md.push(
      ...table(
        ['command', 'time'],
        [...start].map(([k, r]) => [k, `${fmt(r.seconds * 1000, 0)} ms`]),
      ),
    );
    const extra = start.get('--version')!.seconds - start.get('node alone')!.seconds;
    target(extra <= 0.1, '--version within 0.1 s of node alone', `+${fmt(extra * 1000, 0)} ms`);

    // Grading a traces.json document; one 50 MB line.
    const traces = join(OUT, `traces-${values.traces}.json`);
    {
      const s = createWriteStream(traces);
      await generateTraces(parseSize(values.traces), 1, s);
      s.end();
      await finished(s);
    }
    const longFile = join(OUT, `longline-${values['long-line']}.jsonl`);
    await writeGenerated(longFile, 0, 1, parseSize(values['long-line']));
    made.push(traces, longFile);
    const grade = cli('grade --json', 'grade', '--json', '-q');
    const tr = measureCase('traces', [grade, { ...grade, name: 'grade --json, 64 MB heap', nodeFlags: ['--max-old-space-size=64'] }], traces);
    const ll = measureCase('long line', [BARE_MODE, cli('default --json', '--json', '-q')], longFile);
    md.push('', '### Other inputs', '');
    md.push(
      ...table(
        ['input', 'command', 'MB/s', 'peak RSS'],
        [
          ...[...tr].map(([k, r]) => [
            `traces.json, ${fmt(sizeOf(traces) / MB, 0)} MB`,
            k,
            fmt(sizeOf(traces) / MB / r.seconds, 1),
            `${fmt(r.maxRssMB, 0)} MB`,
          ]),
          ...[...ll].map(([k, r]) => [`one ${values['long-line']} line`, k, fmt(sizeOf(longFile) / MB / r.seconds, 1), `${fmt(r.maxRssMB, 0)} MB`]),
        ],
      ),
    );

    // Live input.
    md.push('', '### Latency, from an appended line to its finding (200 findings)', '');
    const lat: string[][] = [];
    for (const mode of ['follow', 'stdin'] as const) {
      const l = await measureLatency(mode, 200, 20);
      lat.push([mode === 'follow' ? '`--follow FILE`' : 'stdin', `${fmt(l.p50, 1)} ms`, `${fmt(l.p99, 1)} ms`]);
    }
    md.push(...table(['input', 'p50', 'p99'], lat));
    md.push('', '### Targets', '', ...targets);
    writeBlock('bench', [header(), '', ...md].join('\n'));
    await htmlBlock(made);
    await codexBlock(made);
  } finally {
    if (values.keep) say(`kept: ${made.map((f) => relative(ROOT, f)).join(', ')}`);
    else for (const f of made) rmSync(f, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
