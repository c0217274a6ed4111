// From command-line inputs to sessions: files, directories walked in byte
// order, `-` for stdin; `X.tN.jsonl` joins `X.jsonl` as segment N; then each
// dialect's companion hook gathers the sessions (Claude Code's: a subagent
// file joins its session when that is an input too, a backgrounded session's
// copied records are marked).
//
// A directory walk reads `*.jsonl` and `*.json` (traces.json and OTLP
// documents, read as if named); what else it meets is skipped and named in
// one warning. What a dialect's hook says is a session's companion (Claude
// Code's: a session's own folder, a subagent's `.meta.json` sidecar) belongs
// to that session: not read on its own, not reported as skipped.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve as resolvePath, sep } from 'node:path';
import { onDisk } from '../core/on-disk.js';
import { errnoWords } from '../core/errors.js';
import { append } from '../core/arrays.js';
import type { CompanionFiles, Dialect } from '../dialects/types.js';
import { companionHooks } from '../dialects/registry.js';
import type { SessionInput } from './session-input.js';

export type { SessionInput };

export interface DiscoveredInputs {
  readonly sessions: SessionInput[];
  /** Inputs that could not be read: each is an input error. */
  readonly problems: InputProblem[];
  /** Files the directory walks skipped: neither *.jsonl nor *.json (see `skippedWarning`). */
  readonly skipped: string[];
  /** Other things a reader of the report should know about the inputs, one line each (a subagent file read without its session). */
  readonly warnings: string[];
}

export interface InputProblem {
  readonly path: string;
  readonly message: string;
}

// `X.t2.jsonl` … : a decimal ≥ 2 with no leading zero.
const SEGMENT = /^(.*)\.t([2-9]|[1-9]\d+)\.jsonl$/;

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** What a walk found: files to read, and files it skipped. */
interface Walked {
  readonly files: string[];
  readonly skipped: string[];
}

async function walk(
  root: string,
  dir: string,
  found: Walked,
  problems: InputProblem[],
  cwd: string | undefined,
  hooks: readonly CompanionFiles[],
): Promise<void> {
  let entries;
  try {
    entries = await readdir(onDisk(dir, cwd), { withFileTypes: true });
  } catch (err) {
    // One unreadable folder does not lose the rest of the tree.
    if (dir === root) throw err;
    problems.push({ path: dir, message: `cannot read ${dir}: ${describe(err)}` });
    return;
  }
  const names = new Set(entries.map((e) => e.name));
  for (const e of entries) {
    const folder = e.isDirectory();
    if (!folder && !e.isFile() && !e.isSymbolicLink()) continue;
    // A session's companion: its session reads what in it is a transcript.
    if (hooks.some((h) => h.owns(e.name, folder, names, onDisk(dir, cwd)))) continue;
    const p = join(dir, e.name);
    if (folder) await walk(root, p, found, problems, cwd, hooks);
    else if (e.name.endsWith('.jsonl') || e.name.endsWith('.json')) found.files.push(p);
    else found.skipped.push(p);
  }
}

/** Files skipped by the walks, named in one line (the first few, then how many more). */
export function skippedWarning(skipped: readonly string[], named = 10): string | undefined {
  if (!skipped.length) return undefined;
  const more = skipped.length - named;
  const list = skipped.slice(0, named).join(', ') + (more > 0 ? `, and ${more} more` : '');
  return `skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'} that ${skipped.length === 1 ? 'is' : 'are'} neither *.jsonl nor *.json: ${list}`;
}

function describe(err: unknown): string {
  return errnoWords(err as NodeJS.ErrnoException);
}

/**
 * Expands inputs into sessions in the order given. Problems (a missing path)
 * and warnings are returned beside the sessions so that the rest is still
 * analysed; the caller shows them (stderr, the report's `warnings`).
 */
export async function discoverSessions(inputs: readonly string[], cwd?: string, dialects?: readonly Dialect[]): Promise<DiscoveredInputs> {
  const hooks = companionHooks(dialects);
  const files: string[] = [];
  const skipped: string[] = [];
  const problems: InputProblem[] = [];
  /** Each walked file's folder input: its shard key is its path below it. */
  const rootOf = new Map<string, string>();
  for (const input of inputs.length ? inputs : ['-']) {
    if (input === '-') {
      files.push('-');
      continue;
    }
    try {
      const st = await stat(onDisk(input, cwd));
      if (st.isDirectory()) {
        const found: Walked = { files: [], skipped: [] };
        await walk(input, input, found, problems, cwd, hooks);
        const order = (a: string, b: string): number => byteOrder(relative(input, a), relative(input, b));
        append(files, found.files.sort(order));
        for (const f of found.files) if (!rootOf.has(f)) rootOf.set(f, input);
        append(skipped, found.skipped.sort(order));
      } else files.push(input);
    } catch (err) {
      problems.push({ path: input, message: `cannot read ${input}: ${describe(err)}` });
    }
  }
  let gathered = groupSegments(files, cwd);
  const warnings: string[] = [];
  for (const hook of hooks) {
    const g = await hook.gather(gathered, cwd);
    gathered = g.sessions;
    append(warnings, g.warnings);
  }
  // A file found in a folder input keys as its path below it; one named directly keys as given (`key`).
  const sessions = gathered.map((s) => {
    const root = rootOf.get(s.key);
    return root === undefined ? s : { ...s, shardKey: relative(root, s.key).split(sep).join('/') };
  });
  return { sessions, problems, skipped, warnings };
}

/** Groups `X.jsonl` with the `X.tN.jsonl` segments given beside it. */
export function groupSegments(files: readonly string[], cwd?: string): SessionInput[] {
  const resolve = (...p: string[]): string => resolvePath(onDisk(join(...p), cwd));
  const seen = new Set<string>();
  const unique = files.filter((f) => {
    const k = f === '-' ? '-' : resolve(f);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const firsts = new Set(unique.filter((f) => f !== '-' && !SEGMENT.test(basename(f))).map((f) => resolve(f)));
  const sessions = new Map<string, { key: string; parts: { n: number; file: string }[] }>();
  for (const f of unique) {
    const m = f === '-' ? null : SEGMENT.exec(basename(f));
    const head = m ? resolve(dirname(f), `${m[1]}.jsonl`) : null;
    const groupKey = head !== null && firsts.has(head) ? head : f === '-' ? '-' : resolve(f);
    let s = sessions.get(groupKey);
    if (!s) {
      s = { key: f, parts: [] };
      sessions.set(groupKey, s);
    }
    s.parts.push({ n: m && groupKey === head ? Number(m[2]) : 1, file: f });
    if (!m || groupKey !== head) s.key = f;
  }
  return [...sessions.values()].map((s) => ({ key: s.key, files: s.parts.sort((a, b) => a.n - b.n).map((p) => p.file) }));
}

/**
 * Would a directory walk read a file at `rel` (relative to the walked
 * directory)? Outputs are refused there, or the next run would read them.
 * Decided by name alone, erring on the side of refusing: a `.json` a
 * dialect says is a session's companion is in fact left to its session.
 */
export function isWalkedPath(rel: string): boolean {
  const name = basename(rel);
  return name.endsWith('.jsonl') || name.endsWith('.json');
}
