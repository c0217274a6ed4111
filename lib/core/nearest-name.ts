// The name a typo meant: the nearest of the names known, when it is near
// enough to be a slip of the fingers (about one edit per four characters),
// for the messages that say "did you mean …?" about a config key or a tool
// name in a rule.

/** Names longer than this are never compared: the distance costs their lengths' product. */
const LONGEST = 256;

/** Edit distance with transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * How far `a` is from `b` as a typo: edits ignoring case, and half an edit
 * when case is all that differs (so `read` is nearer `Read` than `Reed` is).
 */
export function nameDistance(a: string, b: string): number {
  if (a === b) return 0;
  const d = editDistance(a.toLowerCase(), b.toLowerCase());
  return d === 0 ? 0.5 : d;
}

/** The most a name may be off and still be taken for a typo of `meant`. */
function typoBound(meant: string): number {
  return Math.max(1, Math.floor(meant.length / 4));
}

/**
 * The known name nearest `name`, if it is near enough to be what was meant
 * (never `name` itself); the first in code-unit order among equally near ones.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  if (name.length > LONGEST) return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    if (k === name || k.length > LONGEST) continue;
    const bound = typoBound(k);
    if (Math.abs(k.length - name.length) > bound) continue;
    const d = nameDistance(name, k);
    if (d > bound) continue;
    if (d < bestD || (d === bestD && best !== undefined && k < best)) {
      best = k;
      bestD = d;
    }
  }
  return best;
}
