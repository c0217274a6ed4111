// A partition's sessions, without a broker: the offset that is safe to commit
// is below the oldest session still open; a replay that begins inside a
// session already reported is skipped to its end; an idle session ends.
import t from 'tap';
import { PartitionSessions, startsRun } from '../lib/live/partition-sessions.js';
import { builtInAnalyses } from '../lib/analyses/index.js';
import { gradeOptions } from '../lib/analyses/grade/options.js';
import { done, init, req, res, text, toolUse } from './helpers/transcript.js';

const analyses = builtInAnalyses({ grade: gradeOptions({ config: {}, path: null }) });
const lines = (session: string): string[] => [init(['Read'], { session }), ...req('m1', [toolUse('r1', 'Read', { file_path: '/t/a' })], { session }), res('r1', 'x', { session }), ...req('m2', [text('ok')], { session }), done({ session })].map((x) => JSON.stringify(x));

t.test('the safe offset stays below the oldest open session; a result ends its session', async (tt) => {
  const p = new PartitionSessions(0, 'kafka:t/0', analyses);
  tt.equal(p.safeOffset(), undefined, 'nothing read, nothing to commit');
  const a = lines('a');
  const b = lines('b');
  // Interleaved: a0 b0 a1 b1 … ; offsets 0, 1, 2, …
  const order: Array<[string, string]> = [];
  for (let i = 0; i < a.length; i++) order.push(['a', a[i]!], ['b', b[i]!]);
  const ended: string[] = [];
  const safe: number[] = [];
  order.forEach(([key, value], offset) => {
    const e = p.message(key, value, offset, 0);
    if (e) {
      ended.push(`${e.key}@${e.first}-${e.last}:${e.ending}`);
      tt.same(e.report.sessions, [key]);
      tt.equal(e.report.grade!.runs[0]!.steps, 1);
    }
    safe.push(p.safeOffset()!);
  });
  tt.same(ended, ['a@0-8:result', 'b@1-9:result']);
  // While a is open its first offset (0) holds; once a ends, b's (1); once both end, past the last message.
  tt.same(safe, [0, 0, 0, 0, 0, 0, 0, 0, 1, 10]);
  tt.equal(p.open, 0);
});

t.test('a replay that begins inside a reported session is skipped to its end, and never holds the offset back', async (tt) => {
  const p = new PartitionSessions(0, 'kafka:t/0', analyses);
  const a = lines('a');
  // The replay starts at a's third line: its start lay below the committed offset.
  let offset = 40;
  for (const value of a.slice(2)) tt.equal(p.message('a', value, offset++, 0), undefined, 'no partial report');
  tt.equal(p.skipped, 1);
  tt.equal(p.open, 0, 'the tail ended with its result');
  tt.equal(p.safeOffset(), offset);
  tt.ok(startsRun(a[0]!));
  tt.notOk(startsRun(a[1]!));
  tt.ok(startsRun('not json: a damaged first line is read, never dropped'));
});

t.test('a session silent for the idle timeout ends, marked idle', async (tt) => {
  const p = new PartitionSessions(2, 'kafka:t/2', analyses);
  const a = lines('a');
  p.message('a', a[0]!, 5, 1000);
  p.message('a', a[1]!, 6, 2000);
  tt.same(p.idle(2500, 1000), [], 'not yet');
  const e = p.idle(3000, 1000);
  tt.same(e.map((x) => [x.key, x.partition, x.first, x.last, x.ending]), [['a', 2, 5, 6, 'idle']]);
  tt.equal(p.safeOffset(), 7);
});
