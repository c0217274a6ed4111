// Writes fixtures/harbor/job/: a Harbor job folder laid out as Harbor
// writes one (src/harbor/models/trial/paths.py, job.py; the result models
// of src/harbor/models/trial/result.py, in their field order), no licensed
// job folder being found. Five trials of three tasks; what each one shows,
// and the figures the tests expect, are derived by hand in test/harbor.test.ts.
// Run: node --import tsx scripts/make-harbor-fixtures.ts
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const JOB = fileURLToPath(new URL('../fixtures/harbor/job/', import.meta.url));
rmSync(JOB, { recursive: true, force: true });
const write = (rel: string, body: string): void => {
  const p = `${JOB}${rel}`;
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, body);
};
const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const AGENT = { name: 'claude-code', version: '2.1.40', model_info: { name: 'claude-sonnet-4-5', provider: 'anthropic' } };

interface Trial {
  readonly task: string;
  readonly name: string;
  readonly reward?: number;
  readonly exception?: { type: string; message: string };
  /** Calls in the trajectory: [tool, arguments, result]; absent: the agent wrote none. */
  readonly calls?: ReadonlyArray<readonly [string, Record<string, unknown>, string]>;
}

function trialResult(t: Trial): unknown {
  return {
    id: `00000000-0000-4000-8000-${t.name.slice(-7).padStart(12, '0')}`.toLowerCase(),
    task_name: t.task,
    trial_name: t.name,
    trial_uri: `file:///jobs/2026-12-01__10-00-00/${t.name}`,
    task_id: { path: `tasks/${t.task}` },
    source: 'fixture-dataset',
    task_checksum: 'a'.repeat(64),
    config: { task: { path: `tasks/${t.task}` }, agent: { name: 'claude-code', model_name: 'anthropic/claude-sonnet-4-5' }, job_id: 'job-1' },
    agent_info: AGENT,
    agent_result: {
      n_input_tokens: 1200,
      n_cache_tokens: 1000,
      n_output_tokens: 80,
      cost_usd: 0.0042,
      rollout_details: [{ completion_token_ids: [[1, 2, 3]] }],
    },
    verifier_result: t.reward === undefined ? null : { rewards: { reward: t.reward } },
    exception_info:
      t.exception === undefined
        ? null
        : { exception_type: t.exception.type, exception_message: t.exception.message, exception_traceback: 'Traceback …', occurred_at: '2026-12-01T10:05:00Z' },
    started_at: '2026-12-01T10:00:00Z',
    finished_at: '2026-12-01T10:06:00Z',
  };
}

function trajectory(t: Trial): unknown {
  const steps: unknown[] = [{ step_id: 1, timestamp: '2026-12-01T10:01:00Z', source: 'user', message: `solve ${t.task}` }];
  t.calls!.forEach(([tool, args, result], i) => {
    steps.push({
      step_id: steps.length + 1,
      timestamp: '2026-12-01T10:02:00Z',
      source: 'agent',
      message: '',
      tool_calls: [{ tool_call_id: `call_${i + 1}`, function_name: tool, arguments: args }],
      observation: { results: [{ source_call_id: `call_${i + 1}`, content: result }] },
      metrics: { prompt_tokens: 1000 + i * 100, completion_tokens: 20, cached_tokens: 900 },
    });
  });
  steps.push({
    step_id: steps.length + 1,
    timestamp: '2026-12-01T10:03:00Z',
    source: 'agent',
    message: 'Done.',
    metrics: { prompt_tokens: 2000, completion_tokens: 10, cached_tokens: 1900 },
  });
  return {
    schema_version: 'ATIF-v1.4',
    session_id: `session-${t.name}`,
    agent: { name: 'claude-code', version: '2.1.40', model_name: 'claude-sonnet-4-5' },
    steps,
  };
}

const TRIALS: Trial[] = [
  // Solved (reward 1): read, then edit the file it read.
  {
    task: 'hello-world',
    name: 'hello-world__AbC1234',
    reward: 1,
    calls: [
      ['Read', { file_path: '/app/hello.py' }, 'print("helo")\n'],
      ['Edit', { file_path: '/app/hello.py', old_string: 'helo', new_string: 'hello' }, 'ok'],
    ],
  },
  // The same task, not solved (reward 0): an edit of a file it never read.
  {
    task: 'hello-world',
    name: 'hello-world__XyZ9876',
    reward: 0,
    calls: [['Edit', { file_path: '/app/hello.py', old_string: 'helo', new_string: 'hello' }, 'ok']],
  },
  // Partial credit: 0.951 is short of the default threshold of 1.
  { task: 'fix-bug', name: 'fix-bug__Qw3Er5t', reward: 0.951, calls: [['Bash', { command: 'pytest -q' }, '19 passed, 1 failed']] },
  // The environment never started: no trajectory, no reward, a failure outside the agent.
  {
    task: 'fix-bug',
    name: 'fix-bug__Zx8Cv7b',
    exception: { type: 'EnvironmentStartTimeoutError', message: 'Environment start timed out after 600 seconds\nmore detail' },
  },
  // An agent that writes no trajectory (Harbor's oracle), solved.
  { task: 'oracle-task', name: 'oracle-task__Mn4Bv6c', reward: 1 },
];

write(
  'config.json',
  json({ job_name: '2026-12-01__10-00-00', jobs_dir: 'jobs', n_attempts: 2, agents: [{ name: 'claude-code', model_name: 'anthropic/claude-sonnet-4-5' }] }),
);
write(
  'result.json',
  json({
    id: '11111111-1111-4111-8111-111111111111',
    started_at: '2026-12-01T10:00:00',
    n_total_trials: TRIALS.length,
    stats: { n_trials: 5, n_errors: 1, evals: {} },
  }),
);
write('job.log', 'job started\n');
for (const t of TRIALS) {
  write(`${t.name}/config.json`, json({ task: { path: `tasks/${t.task}` }, trial_name: t.name }));
  write(`${t.name}/result.json`, json(trialResult(t)));
  write(`${t.name}/trial.log`, 'trial log\n');
  if (t.exception) write(`${t.name}/exception.txt`, `${t.exception.type}: ${t.exception.message}\n`);
  if (t.reward !== undefined) write(`${t.name}/verifier/reward.txt`, `${t.reward}\n`);
  if (t.reward !== undefined) write(`${t.name}/verifier/test-stdout.txt`, 'tests ran\n');
  if (t.calls) {
    write(`${t.name}/agent/trajectory.json`, json(trajectory(t)));
    // The agent's own log beside it: the same run, which must not be read a second time.
    write(`${t.name}/agent/claude-code.txt`, '{"type":"system","subtype":"init"}\n');
    write(`${t.name}/agent/sessions/projects/app/${t.name}.jsonl`, '{"type":"user","sessionId":"dup","message":{"role":"user","content":"solve"}}\n');
  } else if (t.reward !== undefined) write(`${t.name}/agent/oracle.txt`, 'oracle ran\n');
}
