// Files returned earlier in a thread, looked up without scanning them all.
// pathsMatch has two cases: both paths resolve (then they match only when
// the resolved paths are equal: one map lookup), or one does not (then the
// suffix rule decides, which implies equal suffix keys: only the files with
// the same key are compared).
import type { FileRef } from '../../shell/file-access.js';
import { resolvePath, samePath, suffixKey } from '../../core/paths.js';

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/** An append-only list of files; `has` can look only at the first `limit` entries. */
export class FileIndex {
  #refs: FileRef[] = [];
  #seen = new Set<string>();
  /** The first entry of each resolved path. */
  #byResolved = new Map<string, number>();
  /** Every entry by suffix key, for a file that does not resolve. */
  #byKey = new Map<string, number[]>();
  /** Entries that do not resolve, by suffix key, for a file that does. */
  #unresolvedByKey = new Map<string, number[]>();

  get size(): number {
    return this.#refs.length;
  }

  add(ref: FileRef): void {
    const key = `${ref.cwd ?? ''}\0${ref.path}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const i = this.#refs.push(ref) - 1;
    const resolved = resolvePath(ref.path, ref.cwd);
    if (resolved === undefined) push(this.#unresolvedByKey, suffixKey(ref.path), i);
    else if (!this.#byResolved.has(resolved)) this.#byResolved.set(resolved, i);
    push(this.#byKey, suffixKey(ref.path), i);
  }

  /** Does `f` match (pathsMatch) one of the first `limit` entries? */
  has(f: FileRef, limit = this.#refs.length): boolean {
    const resolved = resolvePath(f.path, f.cwd);
    if (resolved === undefined) return this.#bySuffix(this.#byKey.get(suffixKey(f.path)), f, limit);
    const first = this.#byResolved.get(resolved);
    if (first !== undefined && first < limit) return true;
    return this.#bySuffix(this.#unresolvedByKey.get(suffixKey(f.path)), f, limit);
  }

  #bySuffix(list: readonly number[] | undefined, f: FileRef, limit: number): boolean {
    for (const i of list ?? []) {
      if (i >= limit) break;
      if (samePath(f.path, this.#refs[i]!.path)) return true;
    }
    return false;
  }
}
