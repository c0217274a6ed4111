// From command-line inputs to sessions: files, directories walked in byte
// order, `-` for stdin; `X.tN.jsonl` joins `X.jsonl` as segment N.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { append } from './arrays.js';

export interface SessionInput {
  /** Stable key: the first segment's path as given (or `-`). */
  readonly key: string;
  /** Segment files in order. */
  readonly files: readonly string[];
}

export interface InputProblem {
  readonly path: string;
  readonly message: string;
}

// `X.t2.jsonl` … : a decimal ≥ 2 with no leading zero.
const SEGMENT = /^(.*)\.t([2-9]|[1-9]\d+)\.jsonl$/;

/** Files a directory walk leaves to their parent session. */
function belongsToParent(name: string): boolean {
  return name.startsWith('agent-') || name.endsWith('.meta.json');
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

async function walk(root: string, dir: string, out: string[], problems: InputProblem[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    // One unreadable folder does not lose the rest of the tree.
    if (dir === root) throw err;
    problems.push({ path: dir, message: `cannot read ${dir}: ${describe(err)}` });
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'subagents') await walk(root, p, out, problems);
    } else if ((e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.jsonl') && !belongsToParent(e.name)) {
      out.push(p);
    }
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const why: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'not a directory' };
  return e.code ? `${why[e.code] ?? e.code}` : String(e.message);
}

/**
 * Expands inputs into sessions in the order given. Problems (a missing path)
 * are returned beside the sessions so that the rest is still analysed.
 */
export async function discoverSessions(inputs: readonly string[]): Promise<{ sessions: SessionInput[]; problems: InputProblem[] }> {
  const files: string[] = [];
  const problems: InputProblem[] = [];
  for (const input of inputs.length ? inputs : ['-']) {
    if (input === '-') {
      files.push('-');
      continue;
    }
    try {
      const st = await stat(input);
      if (st.isDirectory()) {
        const found: string[] = [];
        await walk(input, input, found, problems);
        found.sort((a, b) => byteOrder(relative(input, a), relative(input, b)));
        append(files, found);
      } else files.push(input);
    } catch (err) {
      problems.push({ path: input, message: `cannot read ${input}: ${describe(err)}` });
    }
  }
  return { sessions: groupSegments(files), problems };
}

/** Groups `X.jsonl` with the `X.tN.jsonl` segments given beside it. */
export function groupSegments(files: readonly string[]): SessionInput[] {
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
