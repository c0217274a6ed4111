// The reference's occupancy block, line for line (the same labels, columns
// and rounding), once per thread: the main thread's first, under the
// reference's own heading; each subagent's under its type and description.
import { printable } from '../../core/escape.js';
import type { ThreadOccupancy } from './reader.js';

const n = (x: number): string => Math.round(x).toLocaleString('en-US');

/** One thread's block; `window` in tokens, and the model whose name set it, if one did. */
export function occupancyBlock(o: ThreadOccupancy, window: number, windowModel?: string, indent = '  '): string {
  const pctWin = (t: number): string => `${((t / window) * 100).toFixed(1)}%`;
  const pctCtx = (t: number): string => `${o.ctxFinal ? ((t / o.ctxFinal) * 100).toFixed(1) : '0.0'}%`;
  const win = `${window / 1000}k`;
  const row = (label: string, tok: number, chars?: number, results?: number): string =>
    `${indent}  ${label.padEnd(18)}${`${n(tok)} tok`.padStart(12)}  ${pctCtx(tok).padStart(6)} of ctx  ${pctWin(tok).padStart(6)} of ${win} win${chars === undefined ? '' : `   (${n(chars)} chars, ${results} result${results === 1 ? '' : 's'})`}`;
  const r = o.residual;
  const fileAccess = r.read + r.search + r.bash;
  const all = r.codegraph + fileAccess + r.other;
  const heading = o.thread === 'main' ? 'Residual context occupancy at end of run:' : `Residual context occupancy of subagent ${printable(o.agentType ?? o.thread)}${o.description ? ` (${printable(o.description)})` : ''} at its end:`;
  const lines = [
    `${indent}${heading}`,
    `${indent}  ${'final context'.padEnd(18)}${`${n(o.ctxFinal)} tok`.padStart(12)}  ${pctWin(o.ctxFinal).padStart(6)} of ${win} window${windowModel === undefined ? '' : ` (the model ${printable(windowModel)} has a 1M context)`}`,
    `${indent}  ${'  of which fixed'.padEnd(18)}${`${n(o.ctxBase)} tok`.padStart(12)}  system + tool schemas + question, before any tool answered`,
    row('codegraph', r.codegraph, o.chars.codegraph, o.results.codegraph),
    row('Read', r.read, o.chars.read, o.results.read),
    row('Grep/Glob', r.search, o.chars.search, o.results.search),
    row('Bash', r.bash, o.chars.bash, o.results.bash),
    row('→ file-access', fileAccess, o.chars.read + o.chars.search + o.chars.bash, o.results.read + o.results.search + o.results.bash),
    row('other tools', r.other, o.chars.other, o.results.other),
    row('base (prompt+prose)', Math.max(0, o.ctxFinal - all)),
  ];
  const c = o.contributed;
  const shed = c.codegraph + c.read + c.search + c.bash + c.other - all;
  let measure = `${indent}  measure: ${o.charsPerToken.toFixed(2)} chars/tok ${o.calibrated ? 'measured' : '(FALLBACK — no clean gap to calibrate on)'}`;
  if (o.dispersion !== null) measure += ` ±${(o.dispersion * 100).toFixed(1)}%`;
  measure += ` · turns ${o.turns} · compactions ${o.compactions}`;
  if (o.evicted > 0 || shed > 1) measure += ` · evicted ${n(o.evicted)} tok`;
  lines.push(measure);
  return `${lines.join('\n')}\n`;
}
