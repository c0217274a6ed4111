// The reference's text block (anchors.md §3.9), byte for byte for the same
// calls: header, five bucket rows, one line per bucketed call, a note. Ours
// lists calls in the order they were made and adds unjudged and pending
// counts to the note.
import type { Transform } from 'node:stream';
import type { Report, SufficiencySection } from '../lib/report/report.js';
import type { StreamItem } from '../lib/core/items.js';
import { BUCKET_TABLE } from '../lib/analyses/sufficiency/reaction.js';
import type { SinkOptions } from './report-sink.js';
import { renderGradeText } from '../lib/analyses/grade/render-text.js';
import { reportSink } from './report-sink.js';
import { plain } from '../lib/core/style.js';
import type { Paint } from '../lib/core/style.js';
import { printable } from '../lib/core/escape.js';
import { append } from '../lib/core/arrays.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A query cut to the reference's width, then escaped: it is the agent's text. */
function cutQuery(q: string): string {
  return printable(q.length > 46 ? `${q.slice(0, 45)}…` : q);
}

export function renderSufficiencyText(s: SufficiencySection, indent = '  '): string {
  const lines: string[] = [];
  const ours: string[] = [];
  if (s.unjudged > 0) ours.push(`${plural(s.unjudged, 'unjudged delegation')} (not bucketed)`);
  if (s.pending > 0) ours.push(`${plural(s.pending, 'pending call')} (reading stopped before a reaction)`);
  if (s.answered === 0) {
    lines.push(`${indent}Explore sufficiency: no answered ${printable(s.probe)} calls${s.errors > 0 ? ` (${s.errors} errored or never returned)` : ''}`);
    if (ours.length) lines.push(`${indent}  note: ${ours.join(' · ')}`);
    return lines.join('\n') + '\n';
  }
  lines.push(`${indent}Explore sufficiency — what the agent did NEXT (${s.answered} answered call${s.answered === 1 ? '' : 's'}):`);
  for (const [key, label, meaning] of BUCKET_TABLE) {
    const n = s.buckets[key];
    const pct = `${((n / s.answered) * 100).toFixed(0)}%`;
    lines.push(`${indent}  ${String(n).padStart(3)} ${pct.padStart(4)}  ${label.padEnd(31)}${meaning}`);
  }
  let i = 0;
  for (const c of s.calls) {
    if (c.bucket === null) continue;
    const files = c.returned.length;
    lines.push(`${indent}  ${++i}.${c.thread !== 'main' ? ' [subagent]' : ''} "${cutQuery(c.query)}" [${files} file${files === 1 ? '' : 's'}] → ${printable(c.next ?? '')}`);
  }
  const note: string[] = [];
  if (s.errors > 0) note.push(`${plural(s.errors, 'errored/unanswered call')} (not bucketed)`);
  if (s.concurrent > 0) note.push(`${plural(s.concurrent, 'file-access call')} in the SAME message as an explore (not a reaction)`);
  append(note, ours);
  if (note.length) lines.push(`${indent}  note: ${note.join(' · ')}`);
  return lines.join('\n') + '\n';
}

/** Each section present, in report order, separated by a blank line. */
export function renderText(report: Report, paint: Paint = plain): string {
  const parts: string[] = [];
  if (report.sufficiency) parts.push(renderSufficiencyText(report.sufficiency));
  if (report.grade) parts.push(renderGradeText(report.grade, paint));
  if (report.warnings.length) parts.push(report.warnings.map((w) => `warning: ${printable(w)}\n`).join(''));
  return parts.join('\n');
}

/** One line for a finding the moment it is decided, for a followed run. */
export function liveLine(item: StreamItem): string | undefined {
  if (item.kind === 'finding' && item.analysis === 'sufficiency') {
    const c = item.call;
    const files = c.returned.length;
    const what = c.bucket !== null ? `→ ${printable(c.next ?? '')}` : `(${c.reason}${c.next ? `: ${printable(c.next)}` : ''})`;
    return `sufficiency${c.thread !== 'main' ? ' [subagent]' : ''} "${cutQuery(c.query)}" [${files} file${files === 1 ? '' : 's'}] ${what}\n`;
  }
  if (item.kind === 'finding' && item.analysis === 'grade') {
    const f = item.flag;
    return `grade ${printable(item.run)} step ${f.step} ${f.severity} ${f.rule}: ${printable(f.detail)}\n`;
  }
  if (item.kind === 'run') return `grade ${printable(item.result.run)}: ${item.result.verdict} (${item.result.steps} steps, ${item.result.flags.length} flags)\n`;
  return undefined;
}

export interface TextOptions extends SinkOptions {
  /** Print each finding as it is decided, then the report (`--follow`). */
  live?: boolean;
  /** Colour for a terminal (default none). */
  paint?: Paint;
}

/** A sink: stream items in, the text report out when the input ends (and findings as decided when live). */
export function text(opts: TextOptions): Transform {
  const { live, paint = plain, ...rest } = opts;
  return live ? reportSink(rest, (r) => `\n${renderText(r, paint)}`, (item, builder) => (builder.isDuplicate(item.kind === 'finding' || item.kind === 'run' ? item.session : '') ? undefined : liveLine(item))) : reportSink(rest, (r) => renderText(r, paint));
}
