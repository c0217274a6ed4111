// The bucket rules: what the agent's next substantive call says about a
// probe's response: the reference's rules, with the shell parsed.
import type { ToolCallRef } from '../../core/events.js';
import type { FileRef } from '../../shell/file-access.js';
import { classifyShell } from '../../shell/file-access.js';
import { baseName, pathsMatch } from '../../core/paths.js';
import { READ_TOOLS, SEARCH_TOOLS, SHELL_TOOL } from '../../core/tools.js';
import { directoryLabel, namesDirectory, readPathOf } from './directory-read.js';

export const BUCKETS = ['explore_again', 'read_returned', 'read_missed', 'search', 'sufficient'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** Worst first, as printed: key, label, meaning (the reference's table). */
export const BUCKET_TABLE: ReadonlyArray<readonly [Bucket, string, string]> = [
  ['explore_again', 'explore again', 'insufficient: did not answer'],
  ['read_returned', 'Read a file we returned', 'allocation: right file, wrong bytes'],
  ['read_missed', 'Read a file we did not return', 'recall: file never surfaced'],
  ['search', 'Grep/Glob', 'recall (weak): still hunting for the file'],
  ['sufficient', 'moved on / answered', 'sufficient'],
];

export interface Reaction {
  readonly bucket: Bucket;
  readonly next: string;
  /** Only on read_missed: the response mentioned the file without its source. */
  readonly named?: boolean;
}

/** What a probe's response offered, as the rules need it. */
export interface ProbeView {
  /** Files whose source the response carried (resolved against the probe's cwd). */
  readonly returned: readonly FileRef[];
  /** Was the file returned by an earlier answered probe of the same thread? */
  inEarlier(f: FileRef): boolean;
  /** Paths the response mentions; computed only when a read needs them. */
  mentioned(): readonly FileRef[];
  /** Names of the probe's family: a next call of one is `explore again`. */
  readonly family: RegExp;
}

/** The reference's label: `mcp__<server>__` dropped when the server name has no `_`. */
export function shortToolName(name: string): string {
  return name.replace(/^mcp__[^_]*__/, '');
}

/**
 * The bucket a call puts the probe in, with the `next` label the report
 * prints. `directory`: the call's result said it read a directory.
 */
export function classifyReaction(call: ToolCallRef, probe: ProbeView, directory = false): Reaction {
  const { name, input } = call;
  if (probe.family.test(name)) return { bucket: 'explore_again', next: shortToolName(name) };
  if (READ_TOOLS.has(name)) {
    const path = readPathOf(call);
    // A directory read is a listing: the agent is still hunting, as with `ls`.
    if (directory || namesDirectory(path)) return { bucket: 'search', next: directoryLabel(name, path) };
    return classifyRead([{ path, cwd: call.cwd }], '', probe);
  }
  if (SEARCH_TOOLS.has(name)) return { bucket: 'search', next: name };
  if (name === SHELL_TOOL) {
    const command = typeof input.command === 'string' ? input.command : '';
    const access = classifyShell(command, call.cwd);
    if (access.kind === 'read') return classifyRead(access.reads, 'Bash ', probe);
    if (access.kind === 'search') return { bucket: 'search', next: 'Bash search' };
  }
  return { bucket: 'sufficient', next: name };
}

function matchesAny(f: FileRef, list: readonly FileRef[]): boolean {
  return list.some((r) => pathsMatch(f.path, f.cwd, r.path, r.cwd));
}

/**
 * A read of one or more files: returned if any was in this response, else if
 * any was returned earlier in the thread, else missed — named when the
 * response mentioned one of them.
 */
export function classifyRead(files: readonly FileRef[], prefix: string, probe: ProbeView): Reaction {
  const label = (f: FileRef): string => `${prefix}Read ${baseName(f.path)}`;
  for (const f of files) if (matchesAny(f, probe.returned)) return { bucket: 'read_returned', next: label(f) };
  for (const f of files) {
    if (probe.inEarlier(f)) return { bucket: 'read_returned', next: `${label(f)} (returned by an earlier explore)` };
  }
  const mentioned = probe.mentioned();
  for (const f of files) {
    if (matchesAny(f, mentioned)) return { bucket: 'read_missed', next: `${label(f)} (named, not returned)`, named: true };
  }
  const last = files[files.length - 1] ?? { path: '', cwd: undefined };
  return { bucket: 'read_missed', next: label(last), named: false };
}
