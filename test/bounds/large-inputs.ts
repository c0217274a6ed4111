// The large inputs of bounds.test.ts, which runs this file in a worker
// thread whose stack is 0.4 MB, about two fifths of the main thread's. What these cases guard against — an array spread
// into a call's arguments (f(...xs)), or recursion as deep as an input is
// long — takes stack in proportion to the input: the main thread's overflows
// past about 120,000 elements, this thread's past about 25,000. So inputs of
// 32,000 here show what 150,000 showed on the main thread, in a fifth of the
// work. The first test checks that premise: on a Node whose worker stack
// held more, it fails instead of passing without showing anything.
import t from 'tap';
import { builtInAnalyses } from '../../lib/analyses/index.js';
import type { StreamItem } from '../../lib/core/items.js';
import { GraphAccumulator } from '../../lib/analyses/graph/accumulate.js';
import { buildGraph } from '../../lib/analyses/graph/document.js';
import type { Graph } from '../../lib/analyses/graph/document.js';
import { backlog } from '../../lib/analyses/graph/backlog.js';
import { coverage } from '../../lib/analyses/graph/coverage.js';
import { buildMatrix } from '../../lib/analyses/graph/matrix.js';
import { diffGraphs } from '../../lib/analyses/graph/diff.js';
import { policy } from '../../lib/analyses/graph/policy.js';
import { heatmapHtml } from '../../lib/analyses/graph/heatmap-html.js';
import { backlogMarkdown, backlogText } from '../../lib/analyses/graph/reports/backlog.js';
import { coverageMarkdown, coverageText } from '../../lib/analyses/graph/reports/coverage.js';
import { diffMarkdown, diffText } from '../../lib/analyses/graph/reports/diff.js';
import { heatmapMarkdown, heatmapText } from '../../lib/analyses/graph/reports/heatmap.js';
import { renderGradeText } from '../../lib/analyses/grade/render-text.js';
import { renderMarkdown } from '../../sinks/markdown.js';
import { gradeText, options } from '../helpers/grade.js';
import { classifyShell } from '../../lib/shell/file-access.js';

const TOOLS = 180;
const EDGES = TOOLS * TOOLS + 2;
const RUNS = 32_000;
const WORDS = 44_000;

t.test('in this thread, a call given as many arguments as the smallest input here overflows the stack', async (t) => {
  const smallest = Math.min(EDGES, RUNS, WORDS);
  t.throws(() => Math.max(...new Array<number>(smallest).fill(0)), RangeError, `a spread of ${smallest} arguments`);
});

/**
 * One production thread whose consecutive calls take every ordered pair of
 * TOOLS tools once (a de Bruijn sequence of order 2, closed into a cycle):
 * 180² = 32,400 edges between tools, plus START → first and last → END.
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

t.test('a graph of 32,000 edges: built, reported, drawn', async (t) => {
  const g = bigGraph();
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

t.test('reports of 32,000 runs and flags, and a command of 44,000 words', async (t) => {
  // A traces.json document on one line: RUNS runs of one call of the
  // forbidden `rm`, every other one not delivered (so one flaky task).
  const runs = Array.from({ length: RUNS }, (_, i) => ({ run_id: `r${i}`, ok: i % 2 === 0, steps: [{ tool: 'rm' }] }));
  const g = await gradeText(`${JSON.stringify({ runs })}\n`, options('forbidden_tools: ["rm"]'));
  t.equal(g.report.grade!.runs.length, RUNS);
  t.same(g.report.grade!.tasks, [{ task: 'task', k: RUNS, known: RUNS, delivered: RUNS / 2, passK: false, status: 'flaky' }], 'all in the default task');
  t.equal(g.report.grade!.runs.filter((r) => r.verdict === 'corrupt-success').length, RUNS / 2, 'the delivered runs are corrupt (forbidden rm)');
  t.ok(renderGradeText(g.report.grade!).length > 0 && renderMarkdown(g.report, builtInAnalyses({ sufficiency: false, grade: options() })).length > 0);
  const words = Array.from({ length: WORDS }, (_, i) => `f${i}`).join(' ');
  t.equal(classifyShell(`cat -- ${words}`).reads.length, WORDS, 'cat -- with every file');
});
