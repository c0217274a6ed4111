// Sessions read in a pool of workers give the reports one thread gives,
// byte for byte: the same sessions, calls, runs and diagnostics in the same
// order, every reporter, the same exit code.
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { cli, FIXTURES } from './helpers/cli.js';

const REPORTERS = ['text', 'json', 'ndjson', 'junit', 'markdown'];

t.test('--jobs 2 writes what --jobs 1 writes, on every fixture at once', async (t) => {
  const dir = t.testdir({});
  for (const jobs of ['1', '2', '3']) {
    const args = ['--jobs', jobs, ...REPORTERS.filter((r) => r !== 'text').flatMap((r) => ['--reporter', `${r}=${join(dir, `${jobs}.${r}`)}`]), '--reporter', 'text', '.'];
    const r = await cli(args, { cwd: FIXTURES });
    if (jobs === '1') continue;
    const one = await cli(['--jobs', '1', '--reporter', 'text', '.'], { cwd: FIXTURES });
    t.equal(r.code, one.code, `--jobs ${jobs}: the same exit code`);
    t.ok(JSON.parse(readFileSync(join(dir, `${jobs}.json`), 'utf8')).sessions.length > 20, 'every fixture session');
    t.equal(r.stdout, one.stdout, `--jobs ${jobs}: text`);
    t.equal(r.stderr, one.stderr, `--jobs ${jobs}: stderr`);
    for (const rep of REPORTERS.filter((x) => x !== 'text')) t.equal(readFileSync(join(dir, `${jobs}.${rep}`), 'utf8'), readFileSync(join(dir, `1.${rep}`), 'utf8'), `--jobs ${jobs}: ${rep}`);
  }
});

t.test('grading many runs in workers: the same gate, the same pass^k', async (t) => {
  const cfg = join(FIXTURES, 'grade', 'reference-selftest.config.yaml');
  const traces = join(FIXTURES, 'grade', 'reference-selftest.traces.json');
  const files = ['express-res-send.jsonl', 'parallel-subagents.jsonl', 'resumed-run.jsonl', 'resumed-run.t2.jsonl', traces];
  const one = await cli(['grade', '--json', '--jobs', '1', '--config', cfg, ...files]);
  const two = await cli(['grade', '--json', '--jobs', '2', '--config', cfg, ...files]);
  t.equal(two.stdout, one.stdout);
  t.equal(two.code, one.code);
  t.equal(JSON.parse(two.stdout).grade.runs.length > 5, true, 'many runs graded');
});
