// Flags several commands take, declared once: the same words in every
// command's --help and in docs/cli.md. A command that means something else
// by a flag declares its own.
import type { BooleanFlag, Flags, FlagSpec, ListFlag, StringFlag } from '../../core/flag-spec.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../core/line-splitter.js';
import { DEFAULT_FAMILY } from '../../analyses/sufficiency/probe-specs.js';
import { builtInSpecs } from '../../analyses/sufficiency/probe-specs.js';
import { formatNames } from '../../io/format-choice.js';

const code = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

/** `--reporter NAME[=FILE]` among `names`, the first the default. */
export function reporterFlag(names: readonly string[], doc = ''): ListFlag {
  return {
    type: 'string',
    multiple: true,
    metavar: 'NAME[=FILE]',
    help: `one of ${names.join(', ')}; repeatable; NAME=FILE writes it to FILE, and one may go to stdout`,
    defaultText: names[0]!,
    doc: `${code(names)}; repeatable; \`=FILE\` writes that report to a file, and only one may go to stdout${doc}`,
  };
}

export const JSON_FLAG = { type: 'boolean', help: 'same as --reporter json', doc: 'the same as `--reporter json`' } as const satisfies FlagSpec;
export const HELP_FLAG = { type: 'boolean', short: 'h', help: 'this help', doc: "this command's help, on stdout (exit 0)" } as const satisfies FlagSpec;

/** `-q`: what it silences on stderr (errors are always printed). */
export function quietFlag(what: string): BooleanFlag {
  return { type: 'boolean', short: 'q', help: `no ${what} on stderr` };
}

export const CONFIG_FLAG = {
  type: 'string',
  metavar: 'FILE',
  help: 'the agent-eval.yaml to use',
  defaultText: 'the nearest one upward',
  doc: 'the config to use, relative to the working directory ([Config](#config-agent-evalyaml))',
} as const satisfies FlagSpec;

export const FORMAT_FLAG = {
  type: 'string',
  metavar: 'NAME',
  help: `read every input as ${formatNames().join(' | ')}`,
  defaultText: 'detected per file',
  doc: `read every input as ${code(formatNames())} instead of detecting each file's format ([Formats](#how-a-files-format-is-told))`,
} as const satisfies FlagSpec;

export const MAX_LINE_BYTES_FLAG = {
  type: 'string',
  metavar: 'N',
  help: 'a longer line is a diagnostic, skipped, the rest still read',
  defaultText: `${DEFAULT_MAX_LINE_BYTES / 1024 / 1024} MiB`,
  doc: 'a line longer than N bytes (a positive integer) becomes a `line_too_long` diagnostic and is skipped while streaming, never held whole; the rest is still read',
} as const satisfies FlagSpec;

export const TASK_FLAG = { type: 'string', metavar: 'NAME', help: 'every input is a run of this one task (for pass^k)' } as const satisfies FlagSpec;

export const TASK_PATTERN_FLAG = {
  type: 'string',
  metavar: 'REGEX',
  help: "a run's task is the first group (or the match) of its path",
  doc: "a run's task is the first capture group (or the whole match) of its session's path as given; a path it does not match is its own task, with a warning",
} as const satisfies FlagSpec;

export const OUTCOMES_FLAG = {
  type: 'string',
  metavar: 'FILE',
  help: 'JSON or JSONL of {run, delivered}: outcomes for runs whose source has none',
  doc: 'a JSON array, or JSONL, of `{"run": ID, "delivered": true|false}`: outcomes for runs whose source records none (session files, audit logs, OpenTelemetry spans), or to override one ([grading.md](grading.md#outcomes---outcomes))',
} as const satisfies FlagSpec;

/** The probes sufficiency judges when neither `--probe` nor the config names one. */
const BUILT_IN_PROBES = `every built-in probe profile: ${builtInSpecs().map((s) => s.name).join(', ')}`;

/** `--probe` where sufficiency reads it (alone, or with allocation, which reads CodeGraph's explore unless told). */
export function probeFlag(allocation: 'with allocation' | 'without allocation'): StringFlag {
  return {
    type: 'string',
    metavar: 'REGEX',
    help: "one probe: the tools whose names match, judged as CodeGraph's explore",
    defaultText: allocation === 'with allocation' ? `${BUILT_IN_PROBES}; allocation: codegraph_explore` : BUILT_IN_PROBES,
    doc: 'tool names that are probes: one `codegraph`-profile probe instead of the config\'s probes or the built-in ones ([sufficiency.md](sufficiency.md#which-probes-run))',
  };
}

export const PROBE_FAMILY_FLAG = {
  type: 'string',
  metavar: 'REGEX',
  help: 'a next call of these is "explore again"',
  defaultText: DEFAULT_FAMILY,
  doc: 'for the `codegraph` probe: a next call of a tool whose name matches is `explore again`',
} as const satisfies FlagSpec;

/** The reporters of commands that write one whole report (compare, calibrate). */
export const WHOLE_REPORTERS = ['text', 'json', 'markdown'];
/** …and how that report is read and written. */
export const WHOLE_REPORT = { 'max-line-bytes': MAX_LINE_BYTES_FLAG, reporter: reporterFlag(WHOLE_REPORTERS), json: JSON_FLAG, quiet: quietFlag('problems'), help: HELP_FLAG } satisfies Flags;
