// The Cochran–Mantel–Haenszel test: is the first arm's pass rate different
// from the second's, task by task, pooled over tasks? Each task is one 2×2
// table (arm × pass/fail); the statistic compares the first cell's total
// with its expectation under no difference within every task, so a task
// with many runs and one with few are each compared with themselves. With
// R's default continuity correction (`mantelhaen.test(correct = TRUE)`),
// one degree of freedom. Checked against R's documented example.
import jstat from 'jstat';
import type { Table2x2 } from './fisher.js';

export interface CmhResult {
  /** The Mantel–Haenszel X² (continuity-corrected); null when no table carries information (every variance 0). */
  readonly statistic: number | null;
  /** Two-sided p-value; null with the statistic. */
  readonly p: number | null;
  /** Σa − ΣE[a]: positive when the first row passes more than expected. */
  readonly direction: number;
}

export function cmhTest(tables: readonly Table2x2[]): CmhResult {
  let sum = 0;
  let expected = 0;
  let variance = 0;
  for (const t of tables) {
    const row1 = t.a + t.b;
    const row2 = t.c + t.d;
    const col1 = t.a + t.c;
    const col2 = t.b + t.d;
    const n = row1 + row2;
    // A task with fewer than two runs says nothing about a difference.
    if (n < 2) continue;
    sum += t.a;
    expected += (row1 * col1) / n;
    variance += (row1 * row2 * col1 * col2) / (n * n * (n - 1));
  }
  const direction = sum - expected;
  if (variance === 0) return { statistic: null, p: null, direction };
  // As R: the correction only when it does not cross zero (|Δ| ≥ 0.5).
  const corrected = Math.abs(direction) >= 0.5 ? Math.abs(direction) - 0.5 : Math.abs(direction);
  const statistic = (corrected * corrected) / variance;
  return { statistic, p: 1 - jstat.jStat.chisquare.cdf(statistic, 1), direction };
}
