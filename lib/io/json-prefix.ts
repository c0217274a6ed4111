// How far a text is the beginning of one JSON value: used to tell a JSON
// document (a value that goes on over many lines) from JSON Lines whose first
// line is broken. An iterative scanner with an explicit stack, so a hostile
// head of `[[[[…` costs memory in proportion to its length, never the call
// stack; it checks structure, not number syntax (a bad number fails later,
// when the file is read).

export type PrefixScan =
  /** The value ends just before `end`. */
  | { readonly state: 'complete'; readonly end: number }
  /** The text ends inside the value: more bytes may complete it. */
  | { readonly state: 'open' }
  /** The text is no JSON value from `at` on. */
  | { readonly state: 'error'; readonly at: number };

/** What may come next. */
const Want = {
  Value: 0,
  /** After `{`: a key or `}`. */
  KeyOrEnd: 1,
  /** After `,` in an object: a key. */
  Key: 2,
  Colon: 3,
  /** After a value inside a container: `,` or its closer. */
  CommaOrEnd: 4,
  /** After `[`: a value or `]`. */
  ValueOrEnd: 5,
} as const;
type Want = (typeof Want)[keyof typeof Want];

const LITERALS = ['true', 'false', 'null'];

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;
}

/** The end of the string whose opening quote is at `i`, -1 when the text ends first, or an error. */
function stringEnd(text: string, i: number): number | PrefixScan {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) j++;
    // A raw control character (a newline above all) cannot be inside a string.
    else if (c < 0x20) return { state: 'error', at: j };
  }
  return -1;
}

/** Scans the one JSON value that starts at `start` (leading whitespace allowed). */
export function scanJsonPrefix(text: string, start = 0): PrefixScan {
  // The open containers, innermost last: true for an object.
  const stack: boolean[] = [];
  let want: Want = Want.Value;
  let i = start;
  const afterValue = (): Want => (stack.length ? Want.CommaOrEnd : Want.Value);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    switch (want) {
      case Want.KeyOrEnd:
      case Want.Key: {
        if (c === 0x7d && want === Want.KeyOrEnd) {
          stack.pop();
          i++;
          if (!stack.length) return { state: 'complete', end: i };
          want = Want.CommaOrEnd;
          continue;
        }
        if (c !== 0x22) return { state: 'error', at: i };
        const end = stringEnd(text, i);
        if (typeof end !== 'number') return end;
        if (end === -1) return { state: 'open' };
        i = end;
        want = Want.Colon;
        continue;
      }
      case Want.Colon:
        if (c !== 0x3a) return { state: 'error', at: i };
        i++;
        want = Want.Value;
        continue;
      case Want.CommaOrEnd: {
        const inObject = stack[stack.length - 1]!;
        if (c === 0x2c) {
          i++;
          want = inObject ? Want.Key : Want.Value;
          continue;
        }
        if (c !== (inObject ? 0x7d : 0x5d)) return { state: 'error', at: i };
        stack.pop();
        i++;
        if (!stack.length) return { state: 'complete', end: i };
        continue;
      }
      case Want.ValueOrEnd:
        if (c === 0x5d) {
          stack.pop();
          i++;
          if (!stack.length) return { state: 'complete', end: i };
          want = Want.CommaOrEnd;
          continue;
        }
      // fall through: a value
      case Want.Value: {
        if (c === 0x7b || c === 0x5b) {
          stack.push(c === 0x7b);
          want = c === 0x7b ? Want.KeyOrEnd : Want.ValueOrEnd;
          i++;
          continue;
        }
        let end: number;
        if (c === 0x22) {
          const e = stringEnd(text, i);
          if (typeof e !== 'number') return e;
          end = e;
        } else if (isNumberChar(c)) {
          end = i;
          while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
          // A number cut off by the end of the text may go on.
          if (end === text.length) end = -1;
        } else {
          // `true`, `false`, `null`, or the start of one where the text ends.
          const left = text.length - i;
          const word = LITERALS.find((w) => (left >= w.length ? text.startsWith(w, i) : w.startsWith(text.slice(i))));
          if (word === undefined) return { state: 'error', at: i };
          end = left < word.length ? -1 : i + word.length;
        }
        if (end === -1) return { state: 'open' };
        if (!stack.length) return { state: 'complete', end };
        i = end;
        want = afterValue();
        continue;
      }
    }
  }
  return { state: 'open' };
}
