// Files returned by a thread's answered probes (rule 7), kept once each and
// looked up without scanning them all, whatever the order results come in.
//
// A probe counts a file as "returned by an earlier explore" when a probe
// called before it (a smaller `pos`) returned it, and that probe's answer had
// come when the reaction arrived (an answer `tick` no later than then). Each
// file keeps only the answers no other answer dominates: ticks only grow, so
// a later answer is kept only when it comes from an earlier call — a
// staircase of (pos falling, tick rising) that one binary search answers.
//
// pathsMatch has two cases: both paths resolve (then they match only when
// the resolved paths are equal: one map lookup), or one does not (then the
// suffix rule decides, which implies equal suffix keys: only the files with
// the same key are compared).
import type { FileRef } from '../../shell/file-access.js';
import { resolvePath, samePath, suffixKey } from '../../core/paths.js';
import { isUrlRef } from './ref-set.js';

/** The answers that returned one file: calls' positions, falling; answer ticks, rising. */
class Staircase {
  readonly #pos: number[] = [];
  readonly #tick: number[] = [];

  add(pos: number, tick: number): void {
    const n = this.#pos.length;
    if (n > 0 && this.#pos[n - 1]! <= pos) return;
    this.#pos.push(pos);
    this.#tick.push(tick);
  }

  /** Did a call before `pos` return the file in an answer at or before `tick`? */
  has(pos: number, tick: number): boolean {
    // The last answer at or before `tick` has the smallest position among them.
    let lo = 0;
    let hi = this.#tick.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#tick[mid]! <= tick) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.#pos[lo - 1]! < pos;
  }
}

interface Entry {
  readonly path: string;
  readonly answers: Staircase;
  /** The answers of every file that resolves to the same path as this one, when it resolves. */
  byResolved: Staircase | undefined;
}

function push(map: Map<string, Entry[]>, key: string, e: Entry): void {
  const list = map.get(key);
  if (list) list.push(e);
  else map.set(key, [e]);
}

export class FileIndex {
  /** One entry per file as written: by cwd, then path. */
  #entries = new Map<string, Map<string, Entry>>();
  /** Every answer by resolved path. */
  #byResolved = new Map<string, Staircase>();
  /** Every entry by suffix key, for a file that does not resolve. */
  #byKey = new Map<string, Entry[]>();
  /** Entries that do not resolve, by suffix key, for a file that does. */
  #unresolvedByKey = new Map<string, Entry[]>();
  /** URLs (resourceRef), each answered by its own staircase: a URL equals only itself. */
  #urls = new Map<string, Staircase>();
  /** Answers so far: each answer's tick. */
  #ticks = 0;

  /** The tick of the latest answer: what a reaction arriving now may count. */
  get now(): number {
    return this.#ticks;
  }

  /** A probe called at `pos` was answered with these files. */
  answer(pos: number, files: readonly FileRef[]): void {
    const tick = ++this.#ticks;
    for (const f of files) this.#add(f, pos, tick);
  }

  #add(ref: FileRef, pos: number, tick: number): void {
    if (isUrlRef(ref.path)) {
      let s = this.#urls.get(ref.path);
      if (!s) this.#urls.set(ref.path, (s = new Staircase()));
      s.add(pos, tick);
      return;
    }
    // Per working directory, then per path: no key string built per file.
    const cwd = ref.cwd ?? '';
    let inCwd = this.#entries.get(cwd);
    if (!inCwd) this.#entries.set(cwd, (inCwd = new Map()));
    let e = inCwd.get(ref.path);
    if (!e) {
      // Resolved once per file as written: a listing names the same files again and again.
      const resolved = resolvePath(ref.path, ref.cwd);
      e = { path: ref.path, answers: new Staircase(), byResolved: undefined };
      inCwd.set(ref.path, e);
      if (resolved === undefined) push(this.#unresolvedByKey, suffixKey(ref.path), e);
      else {
        let s = this.#byResolved.get(resolved);
        if (!s) this.#byResolved.set(resolved, (s = new Staircase()));
        e.byResolved = s;
      }
      push(this.#byKey, suffixKey(ref.path), e);
    }
    e.answers.add(pos, tick);
    e.byResolved?.add(pos, tick);
  }

  /** Does `f` match (pathsMatch) a file returned by a call before `pos`, answered at or before `tick`? */
  has(f: FileRef, pos: number, tick: number): boolean {
    if (isUrlRef(f.path)) return this.#urls.get(f.path)?.has(pos, tick) ?? false;
    const resolved = resolvePath(f.path, f.cwd);
    if (resolved === undefined) return this.#bySuffix(this.#byKey.get(suffixKey(f.path)), f, pos, tick);
    if (this.#byResolved.get(resolved)?.has(pos, tick)) return true;
    return this.#bySuffix(this.#unresolvedByKey.get(suffixKey(f.path)), f, pos, tick);
  }

  #bySuffix(list: readonly Entry[] | undefined, f: FileRef, pos: number, tick: number): boolean {
    for (const e of list ?? []) if (samePath(f.path, e.path) && e.answers.has(pos, tick)) return true;
    return false;
  }
}
