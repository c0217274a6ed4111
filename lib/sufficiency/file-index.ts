// Files returned earlier in a thread, looked up without scanning them all:
// both path rules imply equal basenames (the suffix rule on the paths as
// written, the resolution rule on the resolved paths), so candidates are
// found by basename and only they are compared.
import type { FileRef } from '../shell/file-access.js';
import { baseName, pathsMatch, resolvePath } from '../paths.js';

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

const resolvedBase = (f: FileRef): string | undefined => {
  const r = resolvePath(f.path, f.cwd);
  return r === undefined ? undefined : baseName(r);
};

/** An append-only list of files; `has` can look only at the first `limit` entries. */
export class FileIndex {
  #refs: FileRef[] = [];
  #seen = new Set<string>();
  #byBase = new Map<string, number[]>();
  #byResolvedBase = new Map<string, number[]>();

  get size(): number {
    return this.#refs.length;
  }

  add(ref: FileRef): void {
    const key = `${ref.cwd ?? ''}\0${ref.path}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const i = this.#refs.push(ref) - 1;
    push(this.#byBase, baseName(ref.path), i);
    const rb = resolvedBase(ref);
    if (rb !== undefined) push(this.#byResolvedBase, rb, i);
  }

  has(f: FileRef, limit = this.#refs.length): boolean {
    const rb = resolvedBase(f);
    for (const list of [this.#byBase.get(baseName(f.path)), rb === undefined ? undefined : this.#byResolvedBase.get(rb)]) {
      for (const i of list ?? []) {
        if (i >= limit) break;
        const r = this.#refs[i]!;
        if (pathsMatch(f.path, f.cwd, r.path, r.cwd)) return true;
      }
    }
    return false;
  }
}
