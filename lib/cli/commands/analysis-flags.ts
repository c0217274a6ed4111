// The analysis commands' flags and help: what each analysis adds to the
// common ones, and how a few values are read.
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../../core/errors.js';
import { regexFlag } from '../flags.js';
import { DEFAULT_FAMILY, DEFAULT_PROBE } from '../../analyses/sufficiency/analyzer.js';
import { DEFAULT_FAIL_ON, FAIL_ON } from '../../analyses/grade/options.js';
import type { FailOn } from '../../analyses/grade/options.js';
import { REPORTERS } from '../reporters.js';
import { formatNames } from '../../io/format-choice.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON = {
  reporter: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  config: { type: 'string' },
  format: { type: 'string' },
  'max-line-bytes': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
  project: { type: 'string' },
  session: { type: 'string' },
  follow: { type: 'boolean', short: 'f' },
  'idle-timeout': { type: 'string' },
  jobs: { type: 'string', short: 'j' },
  shard: { type: 'string' },
  shards: { type: 'string' },
  manifest: { type: 'string' },
} satisfies Options;
/** Commands that read runs into one whole report (compare, calibrate): how runs are grouped into tasks, and the config. */
export const RUN_GROUPING = { task: { type: 'string' }, 'task-pattern': { type: 'string' }, outcomes: { type: 'string' }, config: { type: 'string' } } satisfies Options;
/** …and how that report is read and written. */
export const WHOLE_REPORT = { 'max-line-bytes': { type: 'string' }, reporter: { type: 'string', multiple: true }, json: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' }, help: { type: 'boolean', short: 'h' } } satisfies Options;
/** `--analyses sufficiency,grade`: which of the command's analyses run. */
export const ANALYSES_FLAG = { analyses: { type: 'string' } } satisfies Options;
export const SESSION = { list: { type: 'boolean' }, all: { type: 'boolean' } } satisfies Options;
export const PROBE = { probe: { type: 'string' } } satisfies Options;
export const SUFFICIENCY = { ...PROBE, 'probe-family': { type: 'string' } } satisfies Options;
export const GRADE = { outcomes: { type: 'string' }, task: { type: 'string' }, 'task-pattern': { type: 'string' }, 'fail-on': { type: 'string' } } satisfies Options;

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


export const HELP_COMMON = `  --reporter NAME[=FILE]  ${Object.keys(REPORTERS).join(', ')} (default text); repeatable; =FILE writes a file
  --json                  same as --reporter json
  --config FILE           agent-eval.yaml to use (default: the nearest one upward)
  --format NAME           read every input as ${formatNames().join(' | ')} (default: detected per file)
  --max-line-bytes N      longer lines become diagnostics (default: 64 MiB)
  --project DIR           read sessions of this project (its newest, or --session)
  --session ID            a session of the project (id or unique prefix)
  -f, --follow            keep reading as the input grows; stops at the run's
                          result, on SIGINT, or after --idle-timeout
  --idle-timeout DUR      e.g. 90s, 10m (default: none for session files, 10m for stream-json)
  -j, --jobs N            read sessions in N workers (default: one per core when
                          there are several sessions; 1: this thread only)
  --manifest FILE         inputs, one per line (- for stdin), besides those given
  --shard I/N             read only shard I (0 … N−1) of the sessions; merge the
                          shards' JSON reports with 'agent-eval-stream merge'
  --shards N              N shards, the index from JOB_COMPLETION_INDEX (a
                          Kubernetes Indexed Job; JOB_COMPLETION_COUNT also sets N)
  -q, --quiet             no diagnostics or progress on stderr
  -h, --help              this help`;
export const HELP_ANALYSES = `  --analyses LIST         run only these: sufficiency, grade (default both), and
                          occupancy, allocation, calibration when named (token
                          usage is always reported)`;
export const HELP_PROBE = `  --probe REGEX           probe tool names (default: ${DEFAULT_PROBE})`;
export const HELP_SUFFICIENCY = `${HELP_PROBE}
  --probe-family REGEX    a next call of these is "explore again" (default: ${DEFAULT_FAMILY})`;
export const HELP_GRADE = `  --outcomes FILE         JSON or JSONL of {run, delivered}: outcomes for runs whose source has none
  --task NAME             all inputs are runs of one task (for pass^k)
  --task-pattern REGEX    a run's task is the first group (or the match) of its path
  --fail-on LIST          gate on ${FAIL_ON.join(',')} (default ${DEFAULT_FAIL_ON.join(',')})`;

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

export const HELP_SESSION = `  --list                  list the project's sessions (tab-separated; JSON with --json)
  --all                   every session of the project, oldest first`;

