// The one place paths are compared. When both paths resolve to absolute ones
// (each against the working directory in effect when it was used), they name
// the same file only if equal once resolved: `/other/lib/x.js` is not the
// `lib/x.js` returned under `/repo`. Only when one side cannot be resolved
// (relative, cwd unknown) does the reference's suffix rule (`samePath`) guess.
import { posix } from 'node:path';

/** The reference's normalisation: backslashes to slashes, one leading `./` dropped. */
export function normPath(p: unknown): string {
  const s = String(p ?? '').replace(/\\/g, '/');
  return s.startsWith('./') ? s.slice(2) : s;
}

/**
 * The reference's match: equal, or one ends with `/` + the other. So an
 * absolute path matches the relative one it ends with, and a bare basename
 * matches any file of that name. Case-sensitive; `..` is not resolved.
 */
export function samePath(a: unknown, b: unknown): boolean {
  const x = normPath(a);
  const y = normPath(b);
  if (x === '' || y === '') return false;
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * `p` made absolute against `cwd` with `.` and `..` resolved, or undefined
 * when it cannot be (relative path and no known absolute cwd). `~` is left
 * alone: it names a home directory we do not know.
 */
export function resolvePath(p: string, cwd?: string): string | undefined {
  const s = p.includes('\\') ? p.replace(/\\/g, '/') : p;
  if (s === '') return undefined;
  if (s.startsWith('/')) return isNormal(s) ? s : posix.normalize(s).replace(/(.)\/$/, '$1');
  if (cwd === undefined || !cwd.startsWith('/') || s.startsWith('~')) return undefined;
  if (!isNormal(s) || !isNormal(cwd)) return posix.resolve(cwd, s);
  return cwd === '/' ? `/${s}` : `${cwd}/${s}`;
}

/** A `.` or `..` segment, an empty one (`//`), or a trailing `/` after something. */
const NOT_NORMAL = /(?:^|\/)\.\.?(?:\/|$)|\/\/|[\s\S]\/$/;

/**
 * Already in the form `posix.normalize` gives (trailing `/` aside). Most
 * paths an agent names are, and then resolving is concatenation:
 * `posix.resolve` walks every character in JavaScript, which cost a tenth of
 * the sufficiency analysis on a long transcript.
 */
function isNormal(path: string): boolean {
  return !NOT_NORMAL.test(path);
}

/** Equal once resolved when both resolve; else the reference's suffix match. */
export function pathsMatch(a: string, aCwd: string | undefined, b: string, bCwd: string | undefined): boolean {
  const ra = resolvePath(a, aCwd);
  const rb = ra === undefined ? undefined : resolvePath(b, bCwd);
  if (rb !== undefined) return ra === rb;
  return samePath(a, b);
}

/**
 * What `samePath` keeps equal: the text after the last `/` of the normalised
 * path (empty after a trailing slash). If `samePath(a, b)` then
 * `suffixKey(a) === suffixKey(b)`, so candidates can be looked up by it.
 */
export function suffixKey(p: string): string {
  const n = normPath(p);
  return n.slice(n.lastIndexOf('/') + 1);
}

/** Last `/` segment of the normalised path, or the raw string when that is empty. */
export function baseName(p: string): string {
  const n = normPath(p);
  const seg = n.slice(n.lastIndexOf('/') + 1);
  return seg === '' ? p : seg;
}

/**
 * Paths to test others against with `samePath`, by lookup: equal, one a
 * `/`-suffix of the other. Each path's `/`-suffixes are kept, so a test
 * costs the segments of the path tested, however many paths are held.
 */
export class SamePathSet {
  readonly #exact = new Set<string>();
  /** Every proper `/`-suffix of a held path: a tested path equal to one is a suffix of it. */
  readonly #suffixes = new Set<string>();

  add(p: string): void {
    const n = normPath(p);
    if (n === '' || this.#exact.has(n)) return;
    this.#exact.add(n);
    for (let i = n.indexOf('/'); i !== -1; i = n.indexOf('/', i + 1)) this.#suffixes.add(n.slice(i + 1));
  }

  /** Does some held path `samePath`-match `p`? */
  has(p: string): boolean {
    const n = normPath(p);
    if (n === '') return false;
    if (this.#exact.has(n) || this.#suffixes.has(n)) return true;
    // `n` ends with `/` + a held path.
    for (let i = n.indexOf('/'); i !== -1; i = n.indexOf('/', i + 1)) if (this.#exact.has(n.slice(i + 1))) return true;
    return false;
  }
}
