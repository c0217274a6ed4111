// Bounded everything else: distinct unknown record types are counted up to a
// cap, token counts that are not counts are diagnostics, a YAML alias bomb is
// a config error, and graphs of 150,000 edges are built, reported and drawn
// (no array spread into a call, which overflows the stack past ~120,000).
import { builtInAnalyses } from '../lib/analyses/index.js';
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from './helpers/analyze.js';
import { cli } from './helpers/cli.js';
import { init, jsonl, req, toolUse } from './helpers/transcript.js';
import { mergeReports, OTHER_UNKNOWN_TYPES, ReportBuilder, reportSchema, UNKNOWN_TYPES_CAP } from '../lib/report/index.js';
import type { Report } from '../lib/report/index.js';
import type { StreamItem } from '../lib/core/items.js';
import { parseConfig } from '../lib/config/config.js';
import { ConfigError } from '../lib/core/errors.js';
import { GraphAccumulator } from '../lib/analyses/graph/accumulate.js';
import { buildGraph } from '../lib/analyses/graph/document.js';
import type { Graph } from '../lib/analyses/graph/document.js';
import { backlog } from '../lib/analyses/graph/backlog.js';
import { coverage } from '../lib/analyses/graph/coverage.js';
import { buildMatrix } from '../lib/analyses/graph/matrix.js';
import { diffGraphs } from '../lib/analyses/graph/diff.js';
import { policy } from '../lib/analyses/graph/policy.js';
import { heatmapHtml } from '../lib/analyses/graph/heatmap-html.js';
import { backlogMarkdown, backlogText } from '../lib/analyses/graph/reports/backlog.js';
import { coverageMarkdown, coverageText } from '../lib/analyses/graph/reports/coverage.js';
import { diffMarkdown, diffText } from '../lib/analyses/graph/reports/diff.js';
import { heatmapMarkdown, heatmapText } from '../lib/analyses/graph/reports/heatmap.js';
import { renderGradeText } from '../lib/analyses/grade/render-text.js';
import { renderMarkdown } from '../sinks/markdown.js';
import { gradeText, options } from './helpers/grade.js';
import { classifyShell } from '../lib/shell/file-access.js';

// Large inputs built in memory: several seconds on a busy machine.
t.setTimeout(180_000);

const type = (n: number): string => `t${String(n).padStart(3, '0')}`;

/** Type tNNN occurs NNN % 3 + 1 times; `order` lists the types as they come. */
function typeLines(order: readonly number[], session: string): string {
  return order.flatMap((n) => Array.from({ length: (n % 3) + 1 }, () => JSON.stringify({ type: type(n), session_id: session }))).join('\n') + '\n';
}

async function items(text: string): Promise<StreamItem[]> {
  return (await analyze(text, { sufficiency: false })).items;
}

function build(...parts: StreamItem[][]): Report {
  const b = new ReportBuilder({ analyses: [] });
  for (const p of parts) for (const i of p) b.add(i);
  return b.build();
}

t.test('unknown record types: the 100 first in code-unit order by name, the rest as one count', async (t) => {
  t.equal(UNKNOWN_TYPES_CAP, 100);
  // 150 types t000…t149, largest first, and one record typed like the other key.
  const order = Array.from({ length: 150 }, (_, i) => 149 - i);
  const r = build(await items(`${typeLines(order, 's')}${JSON.stringify({ type: OTHER_UNKNOWN_TYPES, session_id: 's' })}\n`));
  const kept = Object.entries(r.diagnostics.unknownTypes).filter(([k]) => k !== OTHER_UNKNOWN_TYPES);
  t.same(kept, Array.from({ length: 100 }, (_, n) => [type(n), (n % 3) + 1]), 't000…t099 with their own counts');
  // t100…t149: 50 types, n % 3 + 1 cycling 2, 3, 1 from t100: 16 cycles of 6
  // (96) and t148, t149 (2 + 3): 101 records; and the one so named: 102.
  t.equal(r.diagnostics.unknownTypes[OTHER_UNKNOWN_TYPES], 102);
  t.ok(reportSchema.safeParse(r).success);
});

t.test('the cap merges exactly and associatively, whatever the grouping and order', async (t) => {
  // Three sessions share the types unevenly: a has t000…t119, b t060…t149 backwards, c every fifth.
  const a = await items(typeLines(Array.from({ length: 120 }, (_, n) => n), 'a'));
  const b = await items(typeLines(Array.from({ length: 90 }, (_, i) => 149 - i), 'b'));
  const c = await items(typeLines(Array.from({ length: 30 }, (_, i) => i * 5), 'c'));
  const whole = build(a, b, c);
  const [ra, rb, rc] = [build(a), build(b), build(c)];
  t.same(mergeReports(mergeReports(ra, rb), rc).diagnostics, whole.diagnostics, '(a b) c is one pass');
  t.same(mergeReports(ra, mergeReports(rb, rc)).diagnostics, whole.diagnostics, 'a (b c) is one pass');
  t.same(build(c, b, a).diagnostics.unknownTypes, whole.diagnostics.unknownTypes, 'the order the types came in does not matter');
  t.equal(Object.keys(whole.diagnostics.unknownTypes).length, UNKNOWN_TYPES_CAP + 1);
  // Every record is counted once: a 240 (t000…t119: 40 cycles of 1+2+3), b 180, c 30 × (0 % 3 + 1 …) = 60.
  t.equal(Object.values(whole.diagnostics.unknownTypes).reduce((x, y) => x + y, 0), 240 + 180 + 60);
});

t.test('token counts that are negative, infinite or not numbers are a diagnostic, read as 0', async (t) => {
  const bad = { type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: -5, output_tokens: 7, cache_read_input_tokens: '12' } }, session_id: 's', parent_tool_use_id: null };
  // 1e999 is valid JSON and parses as Infinity: written as text.
  const line = JSON.stringify(bad).replace('"output_tokens":7', '"output_tokens":1e999');
  const compaction = { type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'auto', pre_tokens: -1 }, session_id: 's' };
  const a = await analyze(`${jsonl([init()])}${line}\n${jsonl([compaction, req('m2', [toolUse('t1', 'Bash', { command: 'ls' })])])}`);
  t.same(a.report.diagnostics.items.map((d) => [d.code, d.line, d.message]), [
    ['invalid_token_count', 2, 'message m1: input_tokens -5, output_tokens Infinity, cache_read_input_tokens "12": not a token count; read as 0'],
    ['invalid_token_count', 3, 'compaction: pre_tokens -1: not a token count; left out'],
  ]);
  // m1 counts 0 everywhere; m2 (the helper's usage) 1000 in, 2 out.
  t.same(a.report.tokens!.total, { messages: 2, input: 1000, output: 2, cacheRead: 0, cacheCreation: 0 });
  t.ok(reportSchema.safeParse(a.report).success, 'the report passes its own schema');
});

t.test('a YAML alias bomb is a config error: exit 2, one line', async (t) => {
  // Nine anchors, each a list of nine aliases of the one before: 9^9 values.
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push('forbidden_tools: *a8');
  const yaml = `${lines.join('\n')}\n`;
  t.throws(() => parseConfig(yaml, 'bomb.yaml'), ConfigError);
  const dir = mkdtempSync(join(tmpdir(), 'aes-bomb-'));
  writeFileSync(join(dir, 'agent-eval.yaml'), yaml);
  const r = await cli(['grade', '-'], { cwd: dir, input: jsonl([init()]) });
  t.equal(r.code, 2);
  t.match(r.stderr, /^agent-eval-stream: .*agent-eval\.yaml: YAML error: aliases expand too far/);
  t.equal(r.stderr.trimEnd().split('\n').length, 1, 'one line, no stack');
});

const TOOLS = 390;

/**
 * One production thread whose consecutive calls take every ordered pair of
 * TOOLS tools once (a de Bruijn sequence of order 2, closed into a cycle):
 * 390² = 152,100 edges between tools, plus START → first and last → END.
 */
function bigGraph(): Graph {
  const seq: number[] = [];
  const a = [0, 0, 0];
  // The standard generator (Fredricksen–Maiorana), depth n + 1 = 3.
  const db = (t: number, p: number): void => {
    if (t > 2) {
      if (2 % p === 0) for (let j = 1; j <= p; j++) seq.push(a[j]!);
      return;
    }
    a[t] = a[t - p]!;
    db(t + 1, p);
    for (let j = a[t - p]! + 1; j < TOOLS; j++) {
      a[t] = j;
      db(t + 1, t);
    }
  };
  db(1, 1);
  seq.push(seq[0]!);
  const acc = new GraphAccumulator();
  const env = { source: 'stream-json', file: 'f', line: 1, session: 's', segment: 1, seq: 1, thread: 'main' } as const;
  acc.add({ ...env, kind: 'session_start', tools: [] } as StreamItem, 'prod');
  for (const n of seq) acc.add({ ...env, kind: 'tool_call', id: 'c', name: `mcp__big__t${n}`, input: {}, messageId: 'm', index: 0 } as StreamItem, 'prod');
  acc.add({ ...env, kind: 'session_end', stopped: false } as StreamItem, 'prod');
  return buildGraph(acc, { prod: ['p'], eval: [], catalogFiles: [], config: {} });
}

t.test('a graph of 150,000 edges: built, reported, drawn', async (t) => {
  const g = bigGraph();
  const EDGES = TOOLS * TOOLS + 2;
  t.equal(g.edges.length, EDGES, 'every ordered pair once, and START → first, last → END');
  const items = backlog(g);
  // Every production edge but the one into END (ending is not an action), and every tool: no eval calls one.
  t.equal(items.length, EDGES - 1 + TOOLS);
  // Headline, blank, table head and rule, a row per item, a blank.
  t.equal(backlogText(items, []).split('\n').length, 1 + 1 + 2 + items.length + 1);
  t.ok(backlogMarkdown(items, []).length > 0);
  const c = coverage(g);
  t.equal(c.edges.total, EDGES);
  t.ok(coverageText(c).length > 0 && coverageMarkdown(c).length > 0);
  const m = buildMatrix(g);
  t.equal(m.cells.length, (TOOLS + 1) * (TOOLS + 1), 'START and the tools × the tools and END');
  t.ok(heatmapText(m).length > 0 && heatmapMarkdown(m).length > 0 && heatmapHtml(m).length > 0);
  const empty = buildGraph(new GraphAccumulator(), { prod: [], eval: [], catalogFiles: [], config: {} });
  const d = diffGraphs(empty, g);
  t.equal(d.edgesNewlySeen.length, EDGES);
  t.ok(diffText(d).length > 0 && diffMarkdown(d).length > 0);
  t.ok(policy(g));
});

t.test('reports of 150,000 runs and flags, and a command of 200,000 words', async (t) => {
  // A traces.json document on one line: 150,000 runs of one call of the
  // forbidden `rm`, every other one not delivered (so one flaky task).
  const runs = Array.from({ length: 150_000 }, (_, i) => ({ run_id: `r${i}`, ok: i % 2 === 0, steps: [{ tool: 'rm' }] }));
  const g = await gradeText(`${JSON.stringify({ runs })}\n`, options('forbidden_tools: ["rm"]'));
  t.equal(g.report.grade!.runs.length, 150_000);
  t.same(g.report.grade!.tasks, [{ task: 'task', k: 150_000, known: 150_000, delivered: 75_000, passK: false, status: 'flaky' }], 'all in the default task');
  t.equal(g.report.grade!.runs.filter((r) => r.verdict === 'corrupt-success').length, 75_000, 'the delivered runs are corrupt (forbidden rm)');
  t.ok(renderGradeText(g.report.grade!).length > 0 && renderMarkdown(g.report, builtInAnalyses({ sufficiency: false, grade: options() })).length > 0);
  const words = Array.from({ length: 200_000 }, (_, i) => `f${i}`).join(' ');
  t.equal(classifyShell(`cat -- ${words}`).reads.length, 200_000, 'cat -- with every file');
});
