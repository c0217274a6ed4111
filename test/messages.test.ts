// What the CLI says about the user's own input: where skipped lines were,
// each warning once, the flag meant, the config key or tool name meant.
import t from 'tap';
import { cli } from './helpers/cli.js';
import { done, init, jsonl, req, res, toolUse } from './helpers/transcript.js';
import { FILES_PER_UNKNOWN_TYPE } from '../lib/report/unknown-types.js';

const PREFIX = 'agent-eval-stream: ';

/** A small clean run of session `id` with `extra` records of unknown types in it. */
function run(id: string, extra: Array<Record<string, unknown>>): string {
  const o = { session: id };
  return jsonl([init(['Read'], o), ...extra, req('m1', [toolUse('r1', 'Read', { file_path: 'a.js' })], o), res('r1', 'x', o), done(o)].flat());
}

t.test('skipped lines of unknown type name the files they were in', async (t) => {
  const weird = (type: string): Record<string, unknown> => ({ type, session_id: 'x' });
  const dir = t.testdir({
    'a.jsonl': run('a', [weird('telemetry'), weird('telemetry')]),
    'b.jsonl': run('b', [weird('telemetry'), weird('gadget')]),
    'c.jsonl': run('c', []),
  });
  const r = await cli(['grade', 'a.jsonl', 'b.jsonl', 'c.jsonl'], { cwd: dir });
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stderr, `${PREFIX}skipped lines of unknown type: gadget ×1 (b.jsonl), telemetry ×3 (a.jsonl, b.jsonl)\n`, 'each type with the files it was in, c.jsonl in none');
});

t.test('the files named per unknown type are bounded', async (t) => {
  const files: Record<string, string> = {};
  const n = FILES_PER_UNKNOWN_TYPE + 2;
  for (let i = 0; i < n; i++) files[`s${i}.jsonl`] = run(`s${i}`, [{ type: 'telemetry', session_id: `s${i}` }]);
  const dir = t.testdir(files);
  const r = await cli(['grade', ...Object.keys(files)], { cwd: dir });
  const named = Object.keys(files).slice(0, FILES_PER_UNKNOWN_TYPE).join(', ');
  t.equal(r.stderr, `${PREFIX}skipped lines of unknown type: telemetry ×${n} (${named}, …)\n`, 'the first few, then an ellipsis');
});
