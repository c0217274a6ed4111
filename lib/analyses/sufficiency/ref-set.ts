// "Does this file match any of these?" by pathsMatch's rule, looked up
// rather than compared pair by pair: a shell read of thousands of files
// against a listing of thousands would otherwise cost their product.
//
// pathsMatch: when both sides resolve, equal once resolved; when either does
// not, the suffix rule (samePath), which implies equal suffix keys. A URL
// (a resourceRef) is no path: it equals only the same URL.
import type { FileRef } from '../../shell/file-access.js';
import { resolvePath, SamePathSet } from '../../core/paths.js';
import { URL_REF } from './listed-resources.js';

export const isUrlRef = (path: string): boolean => path.startsWith(URL_REF);

export class RefSet {
  readonly #urls = new Set<string>();
  readonly #resolved = new Set<string>();
  /** Paths that do not resolve, for a file that does. */
  readonly #unresolved = new SamePathSet();
  readonly #paths: string[] = [];
  /**
   * Every path, for a file that does not resolve (the suffix rule then
   * decides): indexed the first time such a file is tested. Most files read
   * resolve, and indexing every `/`-suffix of every path was most of the
   * cost of a long listing: a third of it is left.
   */
  #all: SamePathSet | undefined;

  constructor(refs: readonly FileRef[]) {
    for (const r of refs) {
      if (isUrlRef(r.path)) {
        this.#urls.add(r.path);
        continue;
      }
      const resolved = resolvePath(r.path, r.cwd);
      if (resolved === undefined) this.#unresolved.add(r.path);
      else this.#resolved.add(resolved);
      this.#paths.push(r.path);
    }
  }

  has(f: FileRef): boolean {
    if (isUrlRef(f.path)) return this.#urls.has(f.path);
    const resolved = resolvePath(f.path, f.cwd);
    if (resolved === undefined) return this.#allPaths().has(f.path);
    return this.#resolved.has(resolved) || this.#unresolved.has(f.path);
  }

  #allPaths(): SamePathSet {
    if (this.#all === undefined) {
      this.#all = new SamePathSet();
      for (const p of this.#paths) this.#all.add(p);
    }
    return this.#all;
  }
}
