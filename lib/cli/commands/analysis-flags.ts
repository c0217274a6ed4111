// The analysis commands' flags, declared with their help: what each
// analysis adds to the common ones, and how a few values are read.
import { UsageError } from '../../core/errors.js';
import { regexFlag } from '../../core/regex-source.js';
import { DEFAULT_FAIL_ON, FAIL_ON } from '../../analyses/grade/options.js';
import type { FailOn } from '../../analyses/grade/options.js';
import { REPORTERS } from '../reporters.js';
import type { Flags } from '../../core/flag-spec.js';
import { CONFIG_FLAG, FORMAT_FLAG, JSON_FLAG, MAX_LINE_BYTES_FLAG, OUTCOMES_FLAG, PROBE_FAMILY_FLAG, probeFlag, reporterFlag, TASK_FLAG, TASK_PATTERN_FLAG } from './shared-flags.js';

/** What every analysis command reads and writes, and how. */
export const COMMON = {
  reporter: reporterFlag(Object.keys(REPORTERS), ' ([Reporters](#reporters))'),
  json: JSON_FLAG,
  config: CONFIG_FLAG,
  format: FORMAT_FLAG,
  'max-line-bytes': MAX_LINE_BYTES_FLAG,
  project: { type: 'string', metavar: 'DIR', help: 'read sessions of this Claude Code project (its newest, or --session)', doc: "read a Claude Code project's sessions: its newest, or the one `--session` names ([sessions.md](sessions.md)); for `session`, the same as its `PROJECT_DIR`" },
  session: { type: 'string', metavar: 'ID', help: 'a session of the project (id or unique prefix)', doc: 'a session of the project, by id or unique prefix; without `--project`, of the project in the working directory' },
  follow: {
    type: 'boolean',
    short: 'f',
    help: "keep reading as the input grows; stops at the run's result, on SIGINT, or after --idle-timeout",
    doc: "keep reading one file (or a project's newest session) as it grows; stops at the run's result, on SIGINT, or after `--idle-timeout` ([sessions.md](sessions.md#following-a-live-session))",
  },
  'idle-timeout': {
    type: 'string',
    metavar: 'DUR',
    help: 'with --follow: stop after this long without new bytes: 90s, 10m, 1h, 500ms, or seconds',
    defaultText: 'none for session files, 10m for stream-json',
  },
  jobs: {
    type: 'string',
    short: 'j',
    metavar: 'N',
    help: 'read sessions in N threads; 1: this thread only',
    defaultText: 'one per core when there are several sessions',
    doc: 'read sessions in N threads: N−1 workers and the main thread, each taking whole sessions (a session file with its segments and subagent files). The reports are byte for byte those of `--jobs 1`: sessions are written in the order given. Never more than the cores (`os.availableParallelism()`) nor than the sessions (a larger N is capped, and said once on stderr: [below](#a-hostile-environment)); stdin and `--follow` always read in one thread. No progress line is drawn with more than one job',
  },
  manifest: {
    type: 'string',
    metavar: 'FILE',
    help: 'inputs, one per line (- for stdin), besides those given',
    doc: 'read inputs from FILE, one per line (`-` for stdin; blank lines and `#` comments skipped), besides those given on the line; not with `session` ([scale.md](scale.md#which-sessions-a-shard-reads))',
  },
  shard: {
    type: 'string',
    metavar: 'I/N',
    help: "read only shard I (0 … N−1) of the sessions; merge the shards' JSON reports with 'agent-eval-stream merge'",
    doc: "read only the sessions of shard I (0 … N−1), chosen by a hash of each session's path; `merge` makes the shards' JSON reports the single run's report ([scale.md](scale.md#which-sessions-a-shard-reads)). Not with `--follow` or stdin",
  },
  shards: {
    type: 'string',
    metavar: 'N',
    help: 'N shards, the index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job; JOB_COMPLETION_COUNT also sets N)',
    doc: 'N shards, this one\'s index from `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job, whose `JOB_COMPLETION_COUNT` may give N instead: [scale.md](scale.md#kubernetes-an-indexed-job-and-a-merge))',
  },
  quiet: { type: 'boolean', short: 'q', help: 'no diagnostics, notes, warnings or progress on stderr (errors are still printed)' },
} satisfies Flags;
/** `--analyses sufficiency,grade`: which of the command's analyses run. */
export const ANALYSES_FLAG = {
  analyses: {
    type: 'string',
    metavar: 'LIST',
    help: 'run only these, comma-separated, of sufficiency, grade, occupancy, allocation and calibration (with grade); token usage always runs',
    defaultText: 'sufficiency,grade',
    doc: 'run only these, comma-separated: `sufficiency`, `grade`, and `occupancy`, `allocation` and `calibration` (with `grade`) when named ([occupancy.md](occupancy.md), [allocation.md](allocation.md), [calibration.md](calibration.md)); token usage is always reported',
  },
} satisfies Flags;
export const SESSION = {
  list: { type: 'boolean', help: "list the project's sessions (tab-separated; JSON with --json)", doc: "list the project's sessions instead of analysing one, tab-separated (JSON with `--json`) ([sessions.md](sessions.md#the-session-command))" },
  all: { type: 'boolean', help: 'every session of the project, oldest first' },
} satisfies Flags;
/** Allocation alone reads CodeGraph's explore unless told. */
export const PROBE = {
  probe: { type: 'string', metavar: 'REGEX', help: 'the probe tool whose returned characters the final answer may cite', defaultText: 'codegraph_explore', doc: "tool names that are the probe whose responses' characters the final answer may cite ([allocation.md](allocation.md))" },
} satisfies Flags;
/** Sufficiency's flags; with allocation too, `--probe` is both's. */
export const SUFFICIENCY = { probe: probeFlag('without allocation'), 'probe-family': PROBE_FAMILY_FLAG } satisfies Flags;
export const SUFFICIENCY_AND_ALLOCATION = { probe: probeFlag('with allocation'), 'probe-family': PROBE_FAMILY_FLAG } satisfies Flags;
export const GRADE = {
  outcomes: OUTCOMES_FLAG,
  task: TASK_FLAG,
  'task-pattern': TASK_PATTERN_FLAG,
  'fail-on': {
    type: 'string',
    metavar: 'LIST',
    help: `what fails the gate, comma-separated, from ${FAIL_ON.join(', ')}`,
    defaultText: DEFAULT_FAIL_ON.join(','),
    doc: `what fails the gate, comma-separated, from ${FAIL_ON.map((f) => `\`${f}\``).join(', ')} ([grading.md](grading.md#the-gate-and---fail-on))`,
  },
} satisfies Flags;
/** Every flag's value as parsed; a command accepts only its own analyses' flags. */
export interface Values {
  reporter?: string[];
  json?: boolean;
  config?: string;
  format?: string;
  'max-line-bytes'?: string;
  quiet?: boolean;
  help?: boolean;
  probe?: string;
  'probe-family'?: string;
  outcomes?: string;
  task?: string;
  'task-pattern'?: string;
  'fail-on'?: string;
  project?: string;
  session?: string;
  follow?: boolean;
  'idle-timeout'?: string;
  list?: boolean;
  all?: boolean;
  analyses?: string;
  jobs?: string;
  shard?: string;
  shards?: string;
  manifest?: string;
}

/** `90s`, `10m`, `1h`, or seconds. */
export function durationFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${flag}: expected a duration such as 90s or 10m, got '${value}'`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit;
}

/** `--task-pattern`, checked, once it is known not to be given with `--task` (each says what a run's task is). */
export function taskPatternFlag(values: { task?: string; 'task-pattern'?: string }): string | undefined {
  const taskPattern = regexFlag('--task-pattern', values['task-pattern']);
  if (values.task !== undefined && taskPattern !== undefined) throw new UsageError('--task and --task-pattern cannot be used together');
  return taskPattern;
}

export function failOnFlag(value: string | undefined): FailOn[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const v of list) if (!(FAIL_ON as readonly string[]).includes(v)) throw new UsageError(`--fail-on: unknown '${v}' (choose from ${FAIL_ON.join(', ')})`);
  return list as FailOn[];
}

export const INPUTS = `Reads Claude Code stream-json or session files, traces.json documents and
audit logs, from files, directories (walked for *.jsonl and *.json) or stdin
(no input, or -). X.tN.jsonl is segment N of X.jsonl.`;

/** Exit codes as each command can end: sufficiency has no gate. */
export const EXITS_GATED = `Exit: 0 ok, 3 gate failed, 2 usage or input error (or nothing graded),
1 internal error.`;
export const EXITS_UNGATED = 'Exit: 0 ok, 2 usage or input error, 1 internal error.';

