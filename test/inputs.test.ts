import t from 'tap';
import { join } from 'node:path';
import { discoverSessions, groupSegments } from '../lib/inputs.js';

t.test('segments join their session in numeric order', async (t) => {
  t.same(groupSegments(['d/run.t10.jsonl', 'd/run.jsonl', 'd/run.t2.jsonl', 'd/other.jsonl']), [
    { key: 'd/run.jsonl', files: ['d/run.jsonl', 'd/run.t2.jsonl', 'd/run.t10.jsonl'] },
    { key: 'd/other.jsonl', files: ['d/other.jsonl'] },
  ]);
  t.same(groupSegments(['d/lone.t3.jsonl']), [{ key: 'd/lone.t3.jsonl', files: ['d/lone.t3.jsonl'] }], 'a lone segment is its own session');
  t.same(groupSegments(['d/a.t02.jsonl', 'd/a.t1.jsonl', 'd/a.jsonl']).map((s) => s.files.length), [1, 1, 1], 't1 and leading zeros are not segments');
  t.same(groupSegments(['x/run.jsonl', 'y/run.t2.jsonl']).length, 2, 'only in the same directory');
  t.same(groupSegments(['a.jsonl', './a.jsonl', '-', '-']).map((s) => s.key), ['a.jsonl', '-'], 'each input once');
});

t.test('directories are walked in byte order, leaving subagent files to their parent', async (t) => {
  const dir = t.testdir({
    'b.jsonl': '',
    'B.jsonl': '',
    'a.jsonl': '',
    'a.t2.jsonl': '',
    'agent-123.jsonl': '',
    'notes.txt': '',
    sess: { subagents: { 'agent-x.jsonl': '' }, 'x.meta.json': '', 'z.jsonl': '' },
  });
  const { sessions, problems } = await discoverSessions([dir, join(dir, 'missing.jsonl')]);
  t.same(sessions.map((s) => s.files.map((f) => f.slice(dir.length + 1))), [['B.jsonl'], ['a.jsonl', 'a.t2.jsonl'], ['b.jsonl'], ['sess/z.jsonl']]);
  t.same(problems.map((p) => p.message), [`cannot read ${join(dir, 'missing.jsonl')}: no such file or directory`]);
  t.same((await discoverSessions([])).sessions, [{ key: '-', files: ['-'] }], 'no input: stdin');
});
