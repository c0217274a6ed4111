// A probe response cut into its file sections, as CodeGraph's run parser
// cuts it: a section starts at a marker line (`**`path`**`, sufficiency's
// `marker`) and runs to the next one; the last runs to the guidance quote
// that closes a response (the first `\n> ` after it) or to the end. A
// section's size counts its header line; the rest of that line after the
// marker lists the symbols it shows, `name(kind)`, of which only defining
// kinds say the file owns the name (`mutateElement(calls)` does not).
import { detach } from '../sufficiency/returned.js';

export interface SectionSymbol {
  readonly name: string;
  /** A definition proper (a function, a class…), not a variable or constant aliasing one. */
  readonly strong: boolean;
}

export interface Section {
  readonly path: string;
  /** Characters from its header line to the next section (or the guidance quote). */
  readonly chars: number;
  readonly symbols: readonly SectionSymbol[];
}

export const DEFINING_KINDS: ReadonlySet<string> = new Set(['module', 'class', 'struct', 'interface', 'trait', 'protocol', 'function', 'method', 'property', 'field', 'variable', 'constant', 'enum', 'enum_member', 'type_alias', 'namespace', 'route', 'component']);
const WEAK_KINDS: ReadonlySet<string> = new Set(['variable', 'constant']);

const isNameStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57) || c === 46;
const isKindChar = (c: number): boolean => (c >= 97 && c <= 122) || c === 95;
const CLOSE = 41;

/**
 * The symbols a section header line (after its marker) shows as defined
 * there: each `name(kind)` — the reference's `([A-Za-z_$][\w$.]*)\(([a-z_]+)\)`,
 * matched from each `(` so a long run of name characters is read once, not
 * once per place a match could start.
 */
export function headerSymbols(header: string): SectionSymbol[] {
  const out: SectionSymbol[] = [];
  let from = 0;
  for (let q = header.indexOf('(', from); q !== -1; q = header.indexOf('(', Math.max(q + 1, from))) {
    let r = q;
    while (r > from && isNameChar(header.charCodeAt(r - 1))) r--;
    // The leftmost start a match can have: a name starts with a letter, `_` or `$`.
    while (r < q && !isNameStart(header.charCodeAt(r))) r++;
    if (r === q) continue;
    let k = q + 1;
    while (k < header.length && isKindChar(header.charCodeAt(k))) k++;
    if (k === q + 1 || header.charCodeAt(k) !== CLOSE) continue;
    const kind = header.slice(q + 1, k);
    from = k + 1;
    if (DEFINING_KINDS.has(kind)) out.push({ name: detach(header.slice(r, q)), strong: !WEAK_KINDS.has(kind) });
  }
  return out;
}

/**
 * The sections of one response, in order. `marker` is a global multiline
 * regex whose first group is the path (sufficiency's). Only paths, sizes and
 * symbols are kept (copied out), never the response itself.
 */
export function parseSections(text: string, marker: RegExp): Section[] {
  const starts: Array<{ at: number; path: string; headerEnd: number; lineEnd: number }> = [];
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) {
    const headerEnd = m.index + m[0].length;
    const nl = text.indexOf('\n', headerEnd);
    starts.push({ at: m.index, path: detach(m[1] ?? m[0]), headerEnd, lineEnd: nl === -1 ? text.length : nl });
    if (m[0] === '') marker.lastIndex++;
  }
  const out: Section[] = [];
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i]!;
    let end: number;
    if (i + 1 < starts.length) end = starts[i + 1]!.at;
    else {
      const quote = text.indexOf('\n> ', s.at);
      end = quote === -1 ? text.length : quote;
    }
    out.push({ path: s.path, chars: end - s.at, symbols: headerSymbols(text.slice(s.headerEnd, s.lineEnd)) });
  }
  return out;
}
