// Fisher's exact test of a 2×2 table: with its margins fixed, the count in
// the first cell is hypergeometric, and the p-value sums the probabilities
// of the tables at least as extreme as the one observed. Two-sided, as R's
// `fisher.test` computes it: the tables no more probable than the observed
// one (within a relative 1e-7, R's tolerance for ties of floating sums).
// Checked against R's documented examples (test/compare-stats.test.ts).

/** A 2×2 table: `[[a, b], [c, d]]`, rows the arms, columns pass and fail. */
export interface Table2x2 {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

export interface FisherResult {
  /** Two-sided p-value. */
  readonly p: number;
  /** One-sided: the first cell as small as observed or smaller (odds ratio < 1). */
  readonly pLess: number;
  /** One-sided: the first cell as large as observed or larger (odds ratio > 1). */
  readonly pGreater: number;
}

/** ln(n!) by summing logs: exact to rounding for the counts of a comparison (runs, not millions). */
const lnFactorials: number[] = [0];
function lnFactorial(n: number): number {
  for (let i = lnFactorials.length; i <= n; i++) lnFactorials.push(lnFactorials[i - 1]! + Math.log(i));
  return lnFactorials[n]!;
}

const RELATIVE_TIE = 1 + 1e-7;

export function fisherExact(t: Table2x2): FisherResult {
  for (const x of [t.a, t.b, t.c, t.d]) if (!Number.isInteger(x) || x < 0) throw new RangeError(`fisherExact: counts must be non-negative integers, got ${x}`);
  const row1 = t.a + t.b;
  const col1 = t.a + t.c;
  const n = t.a + t.b + t.c + t.d;
  const lo = Math.max(0, col1 - (n - row1));
  const hi = Math.min(row1, col1);
  // P(first cell = x) for every x the margins allow.
  const base = lnFactorial(row1) + lnFactorial(n - row1) + lnFactorial(col1) + lnFactorial(n - col1) - lnFactorial(n);
  const prob = (x: number): number => Math.exp(base - lnFactorial(x) - lnFactorial(row1 - x) - lnFactorial(col1 - x) - lnFactorial(n - row1 - col1 + x));
  const observed = prob(t.a);
  let p = 0;
  let pLess = 0;
  let pGreater = 0;
  for (let x = lo; x <= hi; x++) {
    const px = prob(x);
    if (px <= observed * RELATIVE_TIE) p += px;
    if (x <= t.a) pLess += px;
    if (x >= t.a) pGreater += px;
  }
  return { p: Math.min(1, p), pLess: Math.min(1, pLess), pGreater: Math.min(1, pGreater) };
}
