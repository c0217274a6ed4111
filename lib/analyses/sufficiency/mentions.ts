// Paths a response merely mentions, found in linear time.
//
// The reference matches /(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z]\w*/g over the
// whole response; V8 backtracks quadratically on long runs of word characters
// (80 KB of text: 6 s; a 50 MB response never finishes). Here the text is cut
// into runs of characters that can belong to such a path, each run into its
// `/`-separated segments, and the regex's own leftmost-greedy choice is
// recomputed from per-segment facts — the same paths, in one pass.

function isPathChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 47 || c === 46 || c === 64 || c === 43 || c === 45;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

const SLASH = 47;
const DOT = 46;

export function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  // Only runs with a `/` can hold a path: find each `/` natively and widen it
  // to its run; text between runs is never looked at character by character.
  // Each run is scanned once (`from` is past the last one), so this stays linear.
  let from = 0;
  for (let s = text.indexOf('/', from); s !== -1; s = text.indexOf('/', from)) {
    let start = s;
    while (start > from && isPathChar(text.charCodeAt(start - 1))) start--;
    let end = s + 1;
    while (end < n && isPathChar(text.charCodeAt(end))) end++;
    pathsInRun(text, start, end, out);
    from = end;
  }
  return out;
}

/** The paths of one run [rs, re) of path characters containing a `/`. */
function pathsInRun(text: string, rs: number, re: number, out: string[]): void {
  const segStart: number[] = [rs];
  for (let k = rs; k < re; k++) if (text.charCodeAt(k) === SLASH) segStart.push(k + 1);
  const count = segStart.length;
  const segEnd = (j: number): number => (j + 1 < count ? segStart[j + 1]! - 1 : re);

  // finalEnd[j]: where `[\w@.+-]+\.[A-Za-z]\w*` ends when started at segment
  // j — greedy, so at the rightmost `.letter` with a character before it — or
  // -1 when the segment has none.
  const finalEnd = new Array<number>(count).fill(-1);
  for (let j = 0; j < count; j++) {
    const s = segStart[j]!;
    const e = segEnd(j);
    for (let q = e - 2; q >= s + 1; q--) {
      if (text.charCodeAt(q) === DOT && isLetter(text.charCodeAt(q + 1))) {
        let t = q + 2;
        while (t < e && isWordChar(text.charCodeAt(t))) t++;
        finalEnd[j] = t;
        break;
      }
    }
  }
  // lastFinal[j]: the largest j' ≤ j with a final part; firstEmptyAfter[j]:
  // the first empty segment after j (an empty segment breaks `(seg/)+`).
  const lastFinal = new Array<number>(count);
  for (let j = 0, last = -1; j < count; j++) {
    if (finalEnd[j]! >= 0) last = j;
    lastFinal[j] = last;
  }
  const firstEmptyAfter = new Array<number>(count);
  for (let j = count - 1, next = count; j >= 0; j--) {
    firstEmptyAfter[j] = next;
    if (segStart[j] === segEnd(j)) next = j;
  }

  let pos = rs;
  let seg = 0;
  while (pos < re) {
    if (text.charCodeAt(pos) === SLASH) {
      pos++;
      continue;
    }
    while (seg + 1 < count && segStart[seg + 1]! <= pos) seg++;
    // Greedy `(seg/)+` consumes segments seg..K, K ≤ count-2, all non-empty;
    // backtracking then tries the final part at K+1, K, …, seg+1.
    const k = Math.min(firstEmptyAfter[seg]! - 1, count - 2);
    const j = k >= seg ? lastFinal[k + 1]! : -1;
    if (j >= seg + 1) {
      out.push(text.slice(pos, finalEnd[j]!));
      pos = finalEnd[j]!;
    } else if (seg + 1 < count) {
      pos = segStart[seg + 1]!;
    } else {
      break;
    }
  }
}
