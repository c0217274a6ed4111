// How a comparison's numbers read, in text and Markdown alike.
import type { ArmCell, CompareReport, FigureComparison } from './schema.js';

type Kind = 'rate' | 'share' | 'value';

function num(x: number): string {
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const a = Math.abs(x);
  return a >= 100 ? Math.round(x).toLocaleString('en-US') : a >= 1 ? x.toFixed(2).replace(/\.?0+$/, '') : x.toPrecision(3).replace(/\.?0+$/, '');
}

const pct = (x: number): string => `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`;

/** `2/3 (66.7%)`, `41.2% of 17`, `12 [9–15]`, with n. */
export function cellText(c: ArmCell, kind: Kind): string {
  if (c.n === 0) return '—';
  if (kind === 'rate') return `${c.yes}/${c.n} (${pct(c.rate ?? 0)})`;
  if (kind === 'share') return c.rate === null || c.rate === undefined ? `— (n=${c.n})` : `${pct(c.rate)} (n=${c.n})`;
  return `${num(c.median!)} [${num(c.min!)}–${num(c.max!)}] n=${c.n}`;
}

const signed = (x: number, f: (a: number) => string): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${f(Math.abs(x))}`;
const points = (x: number): string => `${(x * 100).toFixed(1).replace(/\.0$/, '')}`;

/** One arm's figure as a regression names it: `10`, `66.7%`, `—` when it has none. */
export function figureText(v: number | null, kind: Kind): string {
  return v === null ? '—' : kind === 'value' ? String(Number(v.toPrecision(6))) : `${Number((v * 100).toFixed(1))}%`;
}

/** A difference alone: `+6`, `−12.5 pts`. */
export function deltaText(difference: number, kind: Kind): string {
  return kind === 'value' ? signed(difference, num) : `${signed(difference, points)} pts`;
}

/** `+12.5 pts`, `−3`, with the interval or p. */
export function differenceText(c: FigureComparison, kind: Kind): string {
  const d = deltaText(c.difference, kind);
  if (c.p !== undefined) return `${d} (p=${c.p < 0.001 ? '<0.001' : c.p.toFixed(3)})`;
  if (c.low !== undefined && c.high !== undefined) {
    const f = (x: number): string => (x < 0 ? '−' : '') + (kind === 'value' ? num(Math.abs(x)) : points(Math.abs(x)));
    return `${d} [${f(c.low)}, ${f(c.high)}]`;
  }
  return d;
}

type PassK = CompareReport['tasks'][number]['passK'][number];

/** `pass^3 (repeatable, 3/3)`, `FAIL (flaky, 2/3)`, `—` when the arm did not run the task. */
export function passKCell(p: PassK | undefined): string {
  if (!p) return '—';
  return `${p.passK === null ? '?' : p.passK ? 'pass' : 'FAIL'}^${p.k} (${p.status}, ${p.delivered}/${p.k})`;
}

/** `1/2`: the tasks an arm passed on every counted run, of those it ran. */
export function repeatable(r: CompareReport, arm: string): string {
  const mine = r.tasks.flatMap((t) => t.passK.filter((x) => x.arm === arm));
  return `${mine.filter((x) => x.passK === true).length}/${mine.length}`;
}
