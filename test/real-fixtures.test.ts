// Real transcripts nobody here wrote (../shared/fixtures/real, see its
// PROVENANCE.md), read from where they are: each goes through the full
// pipeline without a crash and gives a sane report.
import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFiles } from './helpers/analyze.js';
import { canonicalEventSchema } from '../lib/events.js';
import { reportSchema } from '../lib/report.js';
import { isReportItem } from '../lib/items.js';

const REAL = new URL('../../shared/fixtures/real/', import.meta.url).pathname;

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonlFiles(p));
    else if (name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

/** Read calls counted the plain way, to check the pipeline found each one. */
function countReads(file: string): number {
  const ids = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line);
    if (v.type !== 'assistant' || !Array.isArray(v.message?.content)) continue;
    for (const b of v.message.content) if (b?.type === 'tool_use' && b.name === 'Read') ids.add(b.id);
  }
  return ids.size;
}

if (!existsSync(REAL)) {
  t.comment(`skipped: ${REAL} is absent (the real transcripts live beside the repository, never in it)`);
  t.pass('nothing to check without ../shared');
} else {
  for (const file of jsonlFiles(REAL)) {
    t.test(file.slice(REAL.length), async (t) => {
      const { report, items } = await analyzeFiles([{ key: file, files: [file] }], { sufficiency: { probe: '^Read$' } });
      t.ok(reportSchema.safeParse(report).success, 'a valid report');
      const bad = items.filter((e) => !isReportItem(e) && !canonicalEventSchema.safeParse(e).success);
      t.equal(bad.length, 0, 'every event is canonical');
      t.equal(report.diagnostics.count, 0, 'every line parsed');
      t.same(report.diagnostics.unknownTypes, {}, 'every line type is known');
      const s = report.sufficiency!;
      t.equal(s.calls.length, countReads(file), 'one call per Read in the file');
      t.equal(s.answered + s.errors + s.unjudged + s.pending, s.calls.length, 'each call counted exactly once');
      t.equal(s.pending, 0, 'nothing pending after a complete read');
      t.equal(report.sessions.length, 1);
    });
  }
}
