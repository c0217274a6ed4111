// Lists spilled to a temporary file come back exactly, in order, and leave
// no file behind; a report whose sufficiency calls were spilled is written
// byte for byte as the one that kept them in memory.
import t from 'tap';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SortedRuns, SpilledList, SpillStore, isSpilledList } from '../lib/core/spilled-list.js';
import { SpillFile, READ_CHUNK_BYTES } from '../lib/core/spill-file.js';
import { ReportBuilder } from '../lib/report/index.js';
import type { Report } from '../lib/report/index.js';
import { builtInAnalyses } from '../lib/analyses/index.js';
import { probeSections } from '../lib/analyses/sufficiency/report-section.js';
import { renderJson } from '../sinks/json.js';
import { renderText } from '../sinks/text.js';
import { analyzeFiles } from './helpers/analyze.js';
import type { StreamItem } from '../lib/core/items.js';

const fx = (name: string): string => new URL(`../fixtures/${name}`, import.meta.url).pathname;

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'spill-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('a spill file gives back its lines across read chunks, multi-byte characters split between them, and is gone from its folder once open', (t) => {
  const dir = scratch(t);
  const f = new SpillFile(dir);
  // Lines longer than a read, of two- and three-byte characters, so reads split them.
  const lines = Array.from({ length: 5 }, (_, i) => `${i}:${'é→ '.repeat(READ_CHUNK_BYTES / 3 + i)}\u2028end`);
  const first = f.append(lines.slice(0, 2));
  const second = f.append(lines.slice(2));
  t.same([...f.lines(first)], lines.slice(0, 2), 'the first stretch');
  t.same([...f.lines(second)], lines.slice(2), 'the second stretch (read before and after it was written out)');
  t.same(readdirSync(dir), [], 'the file was removed from its folder as soon as it was open');
  f.close();
  t.end();
});

t.test('a spilled list iterates what was pushed, in order, from disk and memory alike', (t) => {
  const dir = scratch(t);
  const store = new SpillStore({ chars: 40, dir });
  const list = new SpilledList<{ n: number; s: string }>(store);
  const items = Array.from({ length: 25 }, (_, i) => ({ n: i, s: `item ${i} ✓` }));
  for (const x of items) list.pushJson(JSON.stringify(x));
  t.equal(list.length, 25);
  t.same([...list], items, 'every item, in order (most of them read back from the file)');
  t.same(JSON.parse(JSON.stringify({ list })), { list: items }, 'JSON.stringify writes it as the array it holds');
  t.same([...list.filter((x) => x.n % 2 === 0)].map((x) => x.n), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24], 'filter keeps order');
  t.ok(isSpilledList(list) && !isSpilledList(items), 'recognised as a spilled list, an array is not');
  store.close();
  t.end();
});

t.test('sorted runs drain in order of their numbers, ties in the order pushed, whatever was written out', (t) => {
  const dir = scratch(t);
  const store = new SpillStore({ chars: 30, dir });
  const runs = new SortedRuns(store);
  // Nearly in order, as a session's probes are decided: some come late; 7 twice.
  const keys = [1, 2, 4, 3, 5, 9, 6, 7, 8, 7, 12, 10, 11, 0];
  keys.forEach((k, i) => runs.push(k, JSON.stringify(`k${k}#${i}`)));
  t.same(
    [...runs.drain()].map((j) => JSON.parse(j)),
    ['k0#13', 'k1#0', 'k2#1', 'k3#3', 'k4#2', 'k5#4', 'k6#6', 'k7#7', 'k7#9', 'k8#8', 'k9#5', 'k10#11', 'k11#12', 'k12#10'],
    'merged from several runs written out and the rest in memory',
  );
  t.same([...runs.drain()], [], 'a drain takes everything');
  runs.push(2, '"b"');
  runs.push(1, '"a"');
  runs.discard();
  runs.push(3, '"c"');
  t.same([...runs.drain()], ['"c"'], 'discard forgets what came since the last drain');
  store.close();
  t.end();
});

const isFinding = (i: StreamItem): boolean => 'analysis' in i && i.analysis === 'sufficiency' && i.kind === 'finding';

/**
 * Every item of three sessions — the third a second copy of the first — as
 * the CLI's pipeline makes them, but each session's sufficiency findings in
 * reverse: probes are decided out of the order they were made in, and the
 * report lists them in that order.
 */
async function items(): Promise<StreamItem[]> {
  const { items } = await analyzeFiles([
    { key: 'express', files: [fx('express-res-send.jsonl')] },
    { key: 'parallel', files: [fx('parallel-subagents.jsonl')] },
    { key: 'again', files: [fx('express-res-send.jsonl')] },
  ]);
  const out = [...items];
  for (let i = 0; i < out.length; ) {
    let j = i;
    while (j < out.length && isFinding(out[j]!) && out[j]!.session === out[i]!.session) j++;
    if (j > i) out.splice(i, j - i, ...out.slice(i, j).reverse());
    i = Math.max(j, i + 1);
  }
  return out;
}

function build(all: readonly StreamItem[], spill?: ConstructorParameters<typeof SpillStore>[0]): { report: Report; builder: ReportBuilder } {
  const builder = new ReportBuilder({ analyses: builtInAnalyses(), ...(spill ? { spill } : {}) });
  for (const it of all) builder.add(it);
  return { report: builder.build(), builder };
}

t.test('a report whose sufficiency calls were spilled is written exactly as one that kept them', async (t) => {
  const dir = scratch(t);
  const all = await items();
  const kept = build(all).report;
  const calls = probeSections(kept.sufficiency!).reduce((n, p) => n + p.calls.length, 0);
  t.ok(calls >= 2, `the fixtures make probe calls (${calls})`);
  t.same(kept.duplicateSessions, { 'express-demo': 1 }, 'the third session is a second copy of the first');
  t.same([...probeSections(kept.sufficiency!)[0]!.calls].map((c) => c.id).slice(0, 2), ['toolu_e1', 'toolu_e2'], 'the calls are listed in the order made, not decided');
  // Every call spilled at once, and written out a call or two at a time.
  const { report, builder } = build(all, { after: 0, chars: 64, dir });
  t.ok(
    probeSections(report.sufficiency!).every((p) => isSpilledList(p.calls)),
    'every probe kept its calls as a spilled list',
  );
  t.equal(renderJson(report), renderJson(kept), 'JSON, byte for byte');
  t.equal(renderText(report, builtInAnalyses()), renderText(kept, builtInAnalyses()), 'text, byte for byte');
  builder.close();
  t.same(readdirSync(dir), [], 'nothing left in the folder');
});

t.test('below the spill size nothing is serialised: the calls stay an array', async (t) => {
  const all = await items();
  const { report, builder } = build(all, {});
  t.ok(
    probeSections(report.sufficiency!).every((p) => Array.isArray(p.calls)),
    'a few calls are far below the default 8 Mi characters',
  );
  builder.close();
});
