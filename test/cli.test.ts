// The CLI end to end, as a user runs it.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, FIXTURES } from './helpers/cli.js';
import { reportSchema } from '../lib/report/index.js';
import { probeOf } from './helpers/sufficiency.js';

const EXPRESS_TEXT = `  Explore sufficiency — what the agent did NEXT (5 answered calls):
      1  20%  explore again                  insufficient: did not answer
      2  40%  Read a file we returned        allocation: right file, wrong bytes
      1  20%  Read a file we did not return  recall: file never surfaced
      1  20%  Grep/Glob                      recall (weak): still hunting for the file
      0   0%  moved on / answered            sufficient
    1. "res.send Content-Type ETag generation" [2 files] → codegraph_explore
    2. "response.js res.send function body" [1 file] → Read response.js
    3. "etag generation" [1 file] → Bash search
    4. "router dispatch" [1 file] → Read index.js (named, not returned)
    5. "view lookup" [1 file] → Agent → Bash Read view.js
    note: 1 errored/unanswered call (not bucketed) · 1 file-access call in the SAME message as an explore (not a reaction)

  Grep sufficiency — what the agent did NEXT (2 answered calls):
      1  50%  grep again                     insufficient: searched again
      0   0%  read a file grep listed        found: the listing named the file
      0   0%  read a file grep did not list  recall: file never listed
      0   0%  another kind of search         recall (weak): still hunting for the file
      1  50%  moved on / answered            sufficient
    1. "etag" [1 file] → Bash
    2. "grep -rn "etag" lib/ 2>/dev/null | head -20" [1 file] → mcp__codegraph__codegraph_explore
`;
// By hand, the Grep block: the Grep of msg_04 listed lib/utils.js and the next
// message greps again through Bash (explore again); that grep printed
// lib/utils.js:12 and the next call is an explore, not a read or a listing
// (moved on). With nothing configured, every built-in probe tool called has a block.

t.test('text report on a file', async (t) => {
  const r = await cli(['sufficiency', 'express-res-send.jsonl']);
  t.same([r.code, r.stdout, r.stderr], [0, EXPRESS_TEXT, '']);
  const both = await cli(['express-res-send.jsonl']);
  t.equal(both.code, 0);
  t.ok(both.stdout.startsWith(`${EXPRESS_TEXT}\nTraceGrader report\n`), 'the default command: sufficiency, then grading');
  t.match(both.stdout, /\[PASS {3}\] express-demo \/ express-demo {2}\(delivered=True, steps=14, flags=0\)/);
});

t.test('stdin, with no input or with -', async (t) => {
  const input = readFileSync(join(FIXTURES, 'express-res-send.jsonl'));
  t.equal((await cli(['sufficiency'], { input })).stdout, EXPRESS_TEXT);
  t.equal((await cli(['sufficiency', '-'], { input })).stdout, EXPRESS_TEXT);
});

t.test('--json: a valid report', async (t) => {
  const r = await cli(['--json', 'express-res-send.jsonl', 'resumed-run.jsonl', 'resumed-run.t2.jsonl']);
  t.equal(r.code, 0);
  const report = JSON.parse(r.stdout);
  t.ok(reportSchema.safeParse(report).success, 'matches the schema');
  t.same(report.sessions, ['express-demo', 'resumed-1'], 'two sessions: the .t2 file joined its segment 1');
  t.equal(probeOf(report.sufficiency).answered, 7);
});

t.test('several reporters, one to a file', async (t) => {
  const dir = t.testdir({});
  const r = await cli(['--reporter', `json=${join(dir, 'out.json')}`, '--reporter', 'ndjson', join(FIXTURES, 'express-res-send.jsonl')], { cwd: dir });
  t.equal(r.code, 0);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  // Six explores and two greps (see EXPRESS_TEXT), the run, the waste ledger's six entries (docs/report.md's example), the summary.
  t.same(
    lines.map((l) => l.type),
    [
      'finding',
      'finding',
      'finding',
      'finding',
      'finding',
      'finding',
      'finding',
      'finding',
      'run',
      'waste',
      'waste',
      'waste',
      'waste',
      'waste',
      'waste',
      'summary',
    ],
  );
  t.equal(probeOf(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).sufficiency).answered, 5, 'json written to the file');
});

t.test('a directory is walked', async (t) => {
  const r = await cli(['sufficiency', '--json', '--quiet', '.']);
  const report = JSON.parse(r.stdout);
  // By hand, in byte order of the paths under fixtures/: grade/ sorts before
  // m; .json documents are read as if named (traces.json, the OTLP document,
  // and the graph's tool lists, which hold no runs); an OTLP file of requests
  // is its own session; .t2 joins its session; a session's own folder (pair-1/,
  // s21/) is its session's (w1/ with its workflow's agents too); hostile-strings.jsonl's session id is its own first line's; flat subagent files join their session (agent-f1,
  // -f3, -w1 join s20; agent-o1 and copied/sidechain-o2 join s2o), but
  // agent-f2 names session "other", which is no input: a run of its own.
  // The real captures in claude-code-captures/ carry their own session ids;
  // sessions/v2.1.2xx-background's copy (bg-1) is named, and its original.
  t.same(report.sessions, [
    'allocation-1',
    // atif/: the trajectory's session_id.
    'atif-claude-1',
    'background-1',
    // calibration/: the worked example's traces document (its config is skipped).
    'calibration/runs.traces.json',
    'be0eef70-1819-433b-b4ef-00e291758347',
    'cfa96d98-791e-44ec-85d7-1c2e66137656',
    'a54fadaf-3e70-4d63-ac15-e7ca39a134b8',
    'c9b8d14d-e405-44e5-bca1-e6bf2222195a',
    // codex-captures/ (the real rollouts' ids), then codex/: exec streams by thread id, rollouts by session_meta id.
    '019c8a4d-8f45-7010-8b5d-7fad920aa6f9',
    '019c8bfe-ec25-79e0-97d7-bda6a9c575ff',
    'exec-thread-1',
    'exec-thread-2',
    'rollout-patch-unread',
    'rollout-read-then-patch',
    // codex/spawned-child/: the parent, its child read into it.
    '0190a000-0000-7000-8000-00000000000a',
    // compare/: the worked example's two arms, then the two-run diff's pair, files in name order; then two traces documents of three runs each.
    'base-cache-1',
    'base-cache-2',
    'base-cache-3',
    'base-login-1',
    'base-login-2',
    'base-login-3',
    'cand-cache-1',
    'cand-cache-2',
    'cand-cache-3',
    'cand-login-1',
    'cand-login-2',
    'cand-login-3',
    // compare/codex/: the mixed-arms example's codex exec runs.
    'codex-cache-1',
    'codex-cache-2',
    'codex-cache-3',
    'codex-login-1',
    'codex-login-2',
    'codex-login-3',
    'run-failed',
    'run-passed',
    'compare/traces/baseline.traces.json',
    'compare/traces/candidate.traces.json',
    'dir-read-1',
    'express-demo',
    'failed-task-1',
    // gemini/: the .json chat, the .jsonl session, then the two stream-json runs in file order.
    'gemini-legacy-1',
    'gemini-session-1',
    'gemini-stream-2',
    'gemini-stream-1',
    'grade/audit-hooks.jsonl',
    'grade/code-logger-events.jsonl',
    'grade/reference-selftest.traces.json',
    'S1',
    'graph/billing-tools-list.json',
    'graph/keys-tools-list-v2-readonly.json',
    'graph/keys-tools-list-v2.json',
    'graph/keys-tools-list.json',
    'markup',
    'eval-edit',
    'eval-keys',
    'prod-issue',
    'prod-keys-1',
    'prod-keys-2',
    'prod-push',
    // harbor/job/: each trial's run, by trajectory session (or, without one, the trial result's id), trials in name order.
    'session-fix-bug__Qw3Er5t',
    '00000000-0000-4000-8000-00000zx8cv7b',
    'session-hello-world__AbC1234',
    'session-hello-world__XyZ9876',
    '00000000-0000-4000-8000-00000mn4bv6c',
    JSON.parse(readFileSync(join(FIXTURES, 'hostile-strings.jsonl'), 'utf8').split('\n')[0]!).session_id,
    'html-hostile',
    'html-demo',
    'malformed-1',
    'not-a-transcript.jsonl',
    'occupancy-1m',
    'occupancy-1',
    'otel/claude-code-native-spans.json',
    'otel/otlp-two-traces.json',
    'otel/otlp-two-traces.jsonl',
    'parallel-1',
    'resumed-1',
    'sc',
    'pair-1',
    's10',
    'other/agent-f2',
    's20',
    's2o',
    's21',
    'miss-1',
    'wt1',
    'w1',
    'w2',
    'bg-1',
    'orig-1',
    'lead-1',
    // simulate/: four runs, and the settings and catalog files graph simulate reads (listed as inputs, like graph/'s catalogs).
    'simulate/current.json',
    'sim-delivered',
    'simulate/deploy-tools.json',
    'sim-failed',
    'sim-hard-reset',
    'simulate/hostile-settings.json',
    'simulate/proposed.json',
    'sim-soft-reset',
    // usage/: a stream-json run and, last, the session file of the same run.
    'usage-restarted',
    'usage-unpriced',
    'usage-price',
    'usage-run',
    'reread',
    'streak',
    'sub',
    'weak-ten',
    'worktree-1',
  ]);
  t.same(report.duplicateSessions, { 'pair-1': 1, 'usage-run': 1 }, 'the stream-json run and its session file are one session');
  t.same(
    report.warnings,
    [
      'skipped 7 files that are neither *.jsonl nor *.json: PROVENANCE.md, calibration/agent-eval.yaml, claude-code-captures/LICENSE, codex-captures/LICENSE, grade/reference-selftest.config.yaml, graph/seed.agent-eval.yaml, waste/agent-eval.yaml',
      "sessions/v2.0-flat/agent-f2.jsonl is a subagent's transcript of session other, whose session file is not among the inputs: read as a run of its own, other/agent-f2",
      'sessions/v2.1.2xx-background/0-background.jsonl begins with 6 records copied from sessions/v2.1.2xx-background/1-original.jsonl (a backgrounded session, Ctrl+B): counted there only',
      'session miss-1: 1 subagent its Agent/Task results name (agent "a7c0ffee"; 12 tool calls among them, by their results) has no transcript in the input: what it did is not analysed, and the run is incomplete (give the session\'s subagents/ folder, or its session file for a background subagent)',
    ],
    'the files skipped, named; the subagent file read alone; the background copy; the session missing a subagent',
  );
  t.equal(
    r.stderr,
    'agent-eval-stream: not-a-transcript.jsonl: no line is a JSON record (3 lines of text); if this is claude -p --output-format text, record with --output-format stream-json --verbose\n',
    '--quiet: no diagnostics or warnings on stderr, but the input error is told',
  );
  t.equal(r.code, 2, 'a file that holds no transcript is an input error');
  const loud = await cli(['sufficiency', '--json', '.']);
  t.match(
    loud.stderr,
    /^agent-eval-stream: warning: skipped 7 files that are neither \*\.jsonl nor \*\.json: PROVENANCE\.md, calibration\/agent-eval\.yaml, claude-code-captures\/LICENSE, codex-captures\/LICENSE, grade\/reference-selftest\.config\.yaml, graph\/seed\.agent-eval\.yaml, waste\/agent-eval\.yaml$/m,
    'without --quiet: the skipped files on stderr, one line',
  );
});

t.test('a missing input: one line on stderr, the rest analysed, exit 2', async (t) => {
  const r = await cli(['sufficiency', 'nope.jsonl', 'express-res-send.jsonl']);
  t.equal(r.code, 2);
  t.equal(r.stdout, EXPRESS_TEXT);
  t.equal(r.stderr, 'agent-eval-stream: cannot read nope.jsonl: no such file or directory\n');
});

t.test('bad input is data: broken lines are counted, the rest graded', async (t) => {
  const r = await cli(['malformed-lines.jsonl']);
  t.equal(r.code, 0, 'broken lines never change the exit code');
  t.match(r.stderr, /^agent-eval-stream: malformed-lines\.jsonl:\d+: line_not_json: /);
  t.match(r.stdout, /summary: runs=1 /, 'the good lines are still a run');
  const big = await cli(['--json', '--max-line-bytes', '300', 'express-res-send.jsonl']);
  const report = JSON.parse(big.stdout);
  t.ok(
    report.diagnostics.count > 0 && report.diagnostics.items.every((i: { code: string }) => i.code === 'line_too_long'),
    'lines over --max-line-bytes become diagnostics',
  );
  t.equal(report.grade.runs.length, 1, 'the lines that fit are still a run');
  t.equal(big.code, 0, 'and never change the exit code');
});

t.test('a file of plain text is no transcript: exit 2, each bad line still told', async (t) => {
  const r = await cli(['not-a-transcript.jsonl']);
  t.equal(r.code, 2);
  t.match(r.stdout, /summary: runs=0 tasks=0/);
  t.match(r.stdout, /gate: NOT PASSED: nothing was graded \(exit 2, /, 'never "gate: passed"');
  t.equal(
    r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.includes('line_not_json')).length,
    3,
    'one stderr line per bad line',
  );
});

t.test('usage and config errors: exit 2 before reading, one line, no stack', async (t) => {
  for (const args of [['--bogus'], ['--reporter', 'xml'], ['--probe', '('], ['--max-line-bytes', '-1']]) {
    const r = await cli(args);
    t.equal(r.code, 2, args.join(' '));
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
    t.match(r.stderr, /^agent-eval-stream: /);
  }
  const dir = t.testdir({ 'agent-eval.yaml': 'sufficiency:\n  probez: x\n' });
  const r = await cli([join(FIXTURES, 'express-res-send.jsonl')], { cwd: dir });
  t.equal(r.code, 2);
  t.equal(r.stderr, `agent-eval-stream: ${join(dir, 'agent-eval.yaml')}:2:3: sufficiency.probez: unknown key (did you mean 'probe'?)\n`);
  t.equal(r.stdout, '', 'nothing analysed');
});

t.test('flags override the config', async (t) => {
  const dir = t.testdir({ 'agent-eval.yaml': 'sufficiency:\n  probe: "^Read$"\n' });
  const fromConfig = JSON.parse((await cli(['--json', join(FIXTURES, 'express-res-send.jsonl')], { cwd: dir })).stdout);
  t.equal(fromConfig.sufficiency.probe, '^Read$');
  t.equal(fromConfig.sufficiency.calls.length, 2, 'the two Reads are the probes');
  const fromFlag = JSON.parse((await cli(['--json', '--probe', 'codegraph_explore', join(FIXTURES, 'express-res-send.jsonl')], { cwd: dir })).stdout);
  t.equal(fromFlag.sufficiency.answered, 5);
});

t.test('--help and --version', async (t) => {
  const help = await cli(['--help']);
  t.match(help.stdout, /Commands:\n\s+analyze .*\n\s+sufficiency .*\n\s+grade /);
  t.match((await cli(['sufficiency', '--help'])).stdout, /--probe REGEX/);
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  t.equal((await cli(['--version'])).stdout, `${pkg.version}\n`);
});

t.test('one reporter per stdout; no report over an input', async (t) => {
  const r = await cli(['--json', '--reporter', 'ndjson', 'express-res-send.jsonl']);
  t.equal(r.code, 2);
  t.match(r.stderr, /only one reporter can write to stdout \(ndjson, json\)/);
  const dir = t.testdir({ 'run.jsonl': readFileSync(join(FIXTURES, 'express-res-send.jsonl')) });
  const over = await cli(['--reporter', 'json=run.jsonl', 'run.jsonl'], { cwd: dir });
  t.equal(over.code, 2);
  t.equal(readFileSync(join(dir, 'run.jsonl'), 'utf8'), readFileSync(join(FIXTURES, 'express-res-send.jsonl'), 'utf8'), 'the input is untouched');
});

t.test('ndjson: a session given twice prints its findings once', async (t) => {
  const dir = t.testdir({ 'copy.jsonl': readFileSync(join(FIXTURES, 'express-res-send.jsonl')) });
  const r = await cli(['sufficiency', '--reporter', 'ndjson', join(FIXTURES, 'express-res-send.jsonl'), join(dir, 'copy.jsonl')]);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.equal(lines.filter((l) => l.type === 'finding').length, 8, 'six explores and two greps, once');
  t.same(lines.at(-1).duplicateSessions, { 'express-demo': 1 });
});

t.test('a session read twice: the copy that knows the outcome is kept, whichever came first', async (t) => {
  for (const order of [
    ['sessions/pair/pair-1.jsonl', 'sessions/pair/probe-run.stream.jsonl'],
    ['sessions/pair/probe-run.stream.jsonl', 'sessions/pair/pair-1.jsonl'],
  ]) {
    const r = await cli(['grade', '--json', '--quiet', ...order]);
    const report = JSON.parse(r.stdout);
    t.same(
      report.grade.runs.map((x: { run: string; delivered: boolean | null; source: string }) => [x.run, x.delivered, x.source]),
      [['pair-1', true, 'stream-json']],
      order[0]!,
    );
    t.same(report.duplicateSessions, { 'pair-1': 1 });
  }
});
