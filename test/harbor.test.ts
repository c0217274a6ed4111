// Harbor job folders as a corpus: a trial is a run, its task the trial's
// task, its outcome the verifier's reward. The job (fixtures/harbor/job,
// written by scripts/make-harbor-fixtures.ts in Harbor's own layout) holds
// five trials of three tasks; each figure below is derived by hand from it:
//   hello-world__AbC1234  reward 1      Read then Edit        → delivered, clean
//   hello-world__XyZ9876  reward 0      Edit without a Read   → not delivered, edited_without_read
//   fix-bug__Qw3Er5t      reward 0.951  one Bash call         → short of the default threshold (1)
//   fix-bug__Zx8Cv7b      EnvironmentStartTimeoutError, no trajectory, no reward → infra, no steps
//   oracle-task__Mn4Bv6c  reward 1, no trajectory (Harbor's oracle) → delivered, no steps
import t from 'tap';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, FIXTURES } from './helpers/cli.js';
import { CHUNK_SIZES, analyzeSource } from './helpers/analyze.js';
import { TrialResultPicker, readTrialResult } from '../lib/dialects/atif/trial-result.js';
import { trialOutcome } from '../lib/dialects/atif/trial-outcome.js';
import { gradeOptions } from '../lib/analyses/grade/options.js';
import type { JsonToken } from '../lib/dialects/types.js';
import { jsonParser } from 'stream-json/core/parser.js';

interface Run {
  run: string;
  task: string;
  delivered: boolean | null;
  reward?: number;
  infra?: string;
  steps: number;
  verdict: string;
  flags: { rule: string }[];
}
interface Report {
  sessions: string[];
  grade: { runs: Run[]; tasks: { task: string; k: number; delivered: number; status: string }[]; rewardThreshold?: number };
  diagnostics: { items: { code: string }[] };
  warnings: string[];
}

const JOB = 'harbor/job';
const said = (j: Report, code: string): number => j.diagnostics.items.filter((d) => d.code === code).length;
const byRun = (runs: Run[]): Record<string, Run> => Object.fromEntries(runs.map((r) => [r.run, r]));

t.test('a job folder: each trial a run of its task, delivered by its reward', async (t) => {
  const r = await cli(['--json', '-q', JOB]);
  t.equal(r.code, 3, 'two tasks are not repeatable: the gate fails');
  const j = JSON.parse(r.stdout) as Report;
  const runs = byRun(j.grade.runs);
  t.same(Object.keys(runs).sort(), ['fix-bug__Qw3Er5t', 'fix-bug__Zx8Cv7b', 'hello-world__AbC1234', 'hello-world__XyZ9876', 'oracle-task__Mn4Bv6c']);
  t.match(runs['hello-world__AbC1234'], { task: 'hello-world', delivered: true, reward: 1, steps: 2, verdict: 'clean-pass', flags: [] });
  t.match(runs['hello-world__XyZ9876'], {
    task: 'hello-world',
    delivered: false,
    reward: 0,
    steps: 1,
    verdict: 'fail',
    flags: [{ rule: 'edited_without_read' }],
  });
  t.match(runs['fix-bug__Qw3Er5t'], { task: 'fix-bug', delivered: false, reward: 0.951, steps: 1 });
  t.match(runs['fix-bug__Zx8Cv7b'], {
    task: 'fix-bug',
    delivered: false,
    steps: 0,
    infra: /^the trial failed outside the agent: EnvironmentStartTimeoutError: Environment start timed out after 600 seconds$/,
  });
  t.notOk('reward' in runs['fix-bug__Zx8Cv7b']!, 'no verifier ran: no reward');
  t.match(runs['oracle-task__Mn4Bv6c'], { task: 'oracle-task', delivered: true, reward: 1, steps: 0 });
  t.same(
    j.grade.tasks.map((x) => [x.task, x.k, x.delivered, x.status]),
    [
      ['fix-bug', 2, 0, 'failing'],
      ['hello-world', 2, 1, 'flaky'],
      ['oracle-task', 1, 1, 'repeatable'],
    ],
  );
  t.equal(j.grade.rewardThreshold, 1, 'the threshold is said in the report');
  // Only the trajectories and the two results without one are read: no agent log, no job file, no skipped-files warning.
  t.equal(j.sessions.length, 5);
  t.notOk(j.sessions.includes('dup'), "the agent's own session log beside its trajectory is not read");
  t.same(j.warnings, []);
  t.equal(said(j, 'trial_without_trajectory'), 2);
  t.equal(said(j, 'document_without_runs'), 0, 'no config.json is read as a document');
  t.equal(j.diagnostics.items.length, 2);
});

t.test('text and Markdown say the threshold and each reward', async (t) => {
  const text = await cli(['grade', '-q', JOB]);
  t.match(text.stdout, /delivered: a run whose reward is at least 1 \(reward_threshold\)/);
  t.match(text.stdout, /fix-bug \/ fix-bug__Qw3Er5t {2}\(delivered=False, reward=0\.951, steps=1, flags=0\)/);
  t.match(text.stdout, /- outside the agent: the trial failed outside the agent: EnvironmentStartTimeoutError/);
  const md = await cli(['grade', '-q', '--reporter', 'markdown', JOB]);
  t.match(md.stdout, /A run is delivered when its reward is at least 1 \(reward_threshold\)\./);
  t.match(md.stdout, /\| fix-bug__Qw3Er5t \| fix-bug \| false \(reward 0\.951\) \|/);
});

t.test('reward_threshold in the config decides a fractional reward', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-harbor-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'agent-eval.yaml'), 'reward_threshold: 0.95\n');
  const r = await cli(['grade', '--json', '-q', '--config', join(dir, 'agent-eval.yaml'), JOB]);
  const j = JSON.parse(r.stdout) as Report;
  const runs = byRun(j.grade.runs);
  t.equal(runs['fix-bug__Qw3Er5t']!.delivered, true, '0.951 ≥ 0.95');
  t.equal(runs['hello-world__XyZ9876']!.delivered, false, '0 < 0.95');
  t.equal(runs['fix-bug__Zx8Cv7b']!.delivered, false, 'a failure outside the agent is never delivered by a threshold');
  t.equal(j.grade.rewardThreshold, 0.95);
  writeFileSync(join(dir, 'agent-eval.yaml'), 'reward_treshold: 0.95\n');
  const bad = await cli(['grade', '-q', '--config', join(dir, 'agent-eval.yaml'), JOB]);
  t.equal(bad.code, 2, 'a mistyped key is a usage error');
  t.match(bad.stderr, /reward_treshold.*did you mean 'reward_threshold'/);
});

t.test('--outcomes still overrides a trial by its name', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-harbor-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'outcomes.json'), JSON.stringify([{ run: 'hello-world__XyZ9876', delivered: true }]));
  const j = JSON.parse((await cli(['grade', '--json', '-q', '--outcomes', join(dir, 'outcomes.json'), JOB])).stdout) as Report;
  t.equal(byRun(j.grade.runs)['hello-world__XyZ9876']!.delivered, true);
});

t.test('a trajectory named alone finds its trial result beside it; named with it, one run', async (t) => {
  const traj = `${JOB}/fix-bug__Qw3Er5t/agent/trajectory.json`;
  const alone = JSON.parse((await cli(['grade', '--json', '-q', traj])).stdout) as Report;
  t.match(alone.grade.runs, [{ run: 'fix-bug__Qw3Er5t', task: 'fix-bug', reward: 0.951, delivered: false, steps: 1 }]);
  const both = JSON.parse((await cli(['grade', '--json', '-q', `${JOB}/fix-bug__Qw3Er5t/result.json`, traj])).stdout) as Report;
  t.same(
    both.grade.runs.map((r) => r.run),
    ['fix-bug__Qw3Er5t'],
  );
  // A trial's result alone, at every chunk size: the run with no steps.
  const bytes = readFileSync(join(FIXTURES, `${JOB}/oracle-task__Mn4Bv6c/result.json`));
  for (const chunk of CHUNK_SIZES) {
    const { report } = await analyzeSource(bytes, { grade: gradeOptions({ config: {}, path: null }) }, chunk);
    const g = (report as unknown as Report).grade;
    t.match(g.runs, [{ run: 'oracle-task__Mn4Bv6c', task: 'oracle-task', delivered: true, reward: 1, steps: 0 }], `chunk ${chunk}`);
  }
});

t.test('a trial result that cannot be read: said, and the trajectory is read without an outcome', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-harbor-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURES, `${JOB}/hello-world__AbC1234`), join(dir, 'hello-world__AbC1234'), { recursive: true });
  writeFileSync(join(dir, 'hello-world__AbC1234/result.json'), '{"id": "x", "task_name": "hello-world", "trial_na');
  const j = JSON.parse((await cli(['grade', '--json', '-q', 'hello-world__AbC1234/agent/trajectory.json'], { cwd: dir })).stdout) as Report;
  t.match(j.grade.runs, [{ run: 'session-hello-world__AbC1234', delivered: null, steps: 2 }]);
  t.equal(said(j, 'trial_result_unreadable'), 1);
  const r = await cli(['grade', 'hello-world__AbC1234/agent/trajectory.json'], { cwd: dir });
  t.match(r.stderr, /hello-world__AbC1234\/result\.json:0: trial_result_unreadable: .*not JSON.*the trial's run has no outcome/);
  t.notMatch(r.stderr, new RegExp(dir), 'the path is shown as given, not resolved');
});

t.test('a JSON document opening with `id` that is no trial result holds no run', async (t) => {
  const r = await cli(['--json', '-'], { input: '{\n  "id": 7,\n  "name": "x"\n}\n' });
  t.equal(r.code, 2);
  t.match(r.stderr, /document_without_runs/);
});

function pick(text: string): TrialResultPicker['picked'] {
  const p = new TrialResultPicker();
  const out = (jsonParser({ packValues: true, streamValues: false }) as unknown as (s: string | symbol) => { values: JsonToken[] })(text);
  for (const tok of out.values) p.token(tok);
  return p.picked;
}

t.test('the picker keeps only the fields a verdict needs', async (t) => {
  const doc = {
    id: 'u1',
    task_name: 'a',
    trial_name: 'a__1234567',
    config: { task_name: 'not this', agent: { name: 'not this either' } },
    agent_info: { name: 'codex', version: '0.104.0', model_info: { name: 'gpt-5', provider: 'openai' } },
    agent_result: { rollout_details: [{ completion_token_ids: [[1, 2]], task_name: 'nor this' }] },
    verifier_result: { rewards: { reward: 0.5, f2p: 1 } },
    exception_info: { exception_type: 'AgentTimeoutError', exception_message: `${'m'.repeat(600)}`, exception_traceback: 'tb' },
  };
  const p = pick(JSON.stringify(doc).replace('"f2p":1', '"f2p":1,"__proto__":3'));
  t.same(Object.keys(p).sort(), ['agent', 'agent_version', 'exception_message', 'exception_type', 'id', 'model', 'rewards', 'task_name', 'trial_name']);
  t.equal(p.task_name, 'a');
  t.equal(p.agent, 'codex');
  t.equal(p.model, 'gpt-5');
  t.equal(p.exception_message!.length, 500);
  t.same(Object.keys(p.rewards!), ['reward', 'f2p', '__proto__']);
  t.equal(Object.getPrototypeOf(p.rewards), Object.prototype, 'a reward named __proto__ is a key, not a prototype');
  const missing = await readTrialResult(join(tmpdir(), 'no-such-dir-aes', 'result.json'));
  t.match(missing, { error: /cannot read .*ENOENT/ });
});

t.test("whose failure it was, from Harbor's exception types", async (t) => {
  const base = { task_name: 'a', trial_name: 'a__1' };
  t.same(
    trialOutcome({ ...base, rewards: { reward: 0 }, exception_type: 'AgentTimeoutError' }),
    { run: 'a__1', task: 'a', reward: 0, delivered: false },
    "the agent's timeout: its reward judges it",
  );
  t.same(
    trialOutcome({ ...base, exception_type: 'NonZeroAgentExitCodeError' }),
    { run: 'a__1', task: 'a', delivered: false },
    "the agent's own failure, no reward: not delivered",
  );
  t.match(trialOutcome({ ...base, exception_type: 'RewardFileNotFoundError', exception_message: 'no reward file' }), {
    delivered: false,
    infra: 'the verifier failed: RewardFileNotFoundError: no reward file',
  });
  t.same(trialOutcome(base), { run: 'a__1', task: 'a', delivered: null }, 'no verifier ran and nothing failed: unknown');
  t.same(trialOutcome({ ...base, rewards: { score: 0.7 } }), { run: 'a__1', task: 'a', reward: 0.7, delivered: false }, "reward.json's one key is the reward");
  t.match(trialOutcome({ ...base, rewards: { f2p: 1, p2p: 0 } }), {
    delivered: null,
    note: 'its rewards are f2p, p2p, and none is named reward: no outcome read',
  });
  t.same(trialOutcome({ ...base, rewards: { reward: 1, f2p: 0 } }), { run: 'a__1', task: 'a', reward: 1, delivered: true }, '`reward` wins among several');
});

t.test('compare: two Harbor jobs as arms, the failure outside the agent counted apart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aes-harbor-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURES, JOB), join(dir, 'b'), { recursive: true });
  // Arm b solves the second hello-world trial.
  const res = join(dir, 'b/hello-world__XyZ9876/result.json');
  writeFileSync(res, readFileSync(res, 'utf8').replace('"reward": 0\n', '"reward": 1\n'));
  const r = await cli(['compare', '--json', '--arm', `a=${join(FIXTURES, JOB)}`, '--arm', `b=${join(dir, 'b')}`]);
  t.not(r.code, 2, r.stderr);
  const j = JSON.parse(r.stdout) as { arms: { name: string; runs: number; tasks: number; infra: { run: string }[] }[] };
  t.same(
    j.arms.map((a) => [a.name, a.runs, a.tasks, a.infra.map((x) => x.run)]),
    [
      ['a', 5, 3, ['fix-bug__Zx8Cv7b']],
      ['b', 5, 3, ['fix-bug__Zx8Cv7b']],
    ],
  );
});
