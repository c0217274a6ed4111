// A Markdown summary for people reading CI: the gate first, then each
// section. The CLI also appends it to $GITHUB_STEP_SUMMARY when that is set.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/report.js';
import { BUCKET_TABLE } from '../lib/analyses/sufficiency/reaction.js';
import { passKText } from '../lib/analyses/grade/verdicts.js';
import { gateWords } from '../lib/analyses/grade/render-text.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { markdownText } from '../lib/core/escape.js';
import { append } from '../lib/core/arrays.js';

/** Text from input, safe anywhere in Markdown, a table cell included (lib/escape.ts). */
export const cell = markdownText;

const pct = (n: number, of: number): string => (of ? `${((n / of) * 100).toFixed(0)}%` : '—');

export function renderMarkdown(r: Report): string {
  const out: string[] = ['## agent-eval-stream', ''];
  const g = r.grade;
  if (g) out.push(g.gate.failed ? `**Gate failed** (exit ${g.gate.exitCode}): ${g.gate.reasons.map(cell).join('; ')}` : g.gate.exitCode === 0 ? '**Gate passed**' : `**Gate ${gateWords(g).toLowerCase()}** (exit ${g.gate.exitCode})`, '');
  if (r.inputErrors.length) append(out, r.inputErrors.map((e) => `- input error: ${cell(e.message)}`)).push('');
  if (r.warnings.length) append(out, r.warnings.map((w) => `> warning: ${cell(w)}`)).push('');
  const s = r.sufficiency;
  if (s) {
    out.push(`### Tool-response sufficiency (${s.answered} answered ${cell(s.probe)} calls)`, '', '| bucket | calls | share |', '|---|---:|---:|');
    for (const [key, label] of BUCKET_TABLE) out.push(`| ${label} | ${s.buckets[key]} | ${pct(s.buckets[key], s.answered)} |`);
    out.push('', `errors ${s.errors} · unjudged ${s.unjudged} · pending ${s.pending} · concurrent ${s.concurrent}`, '');
  }
  if (g) {
    out.push('### Trajectory grading', '', `config: ${cell(g.config)} · verified: ${g.verified}`, '', '| run | task | delivered | verdict | steps | flags |', '|---|---|---|---|---:|---|');
    for (const run of g.runs) out.push(`| ${cell(run.run)} | ${cell(run.task)} | ${run.delivered ?? '?'} | ${run.verdict} | ${run.steps} | ${run.flags.map((f) => `${f.rule} @${f.step}`).join(', ') || '—'} |`);
    out.push('', '| task | k | delivered | pass^k | status |', '|---|---:|---:|---|---|');
    for (const t of g.tasks) out.push(`| ${cell(t.task)} | ${t.k} | ${t.delivered} | ${passKText(t.passK)} | ${t.status} |`);
    const flags = g.runs.flatMap((run) => run.flags.map((f) => `- run ${cell(run.run)} step ${f.step} **${f.rule}** (${f.severity}): ${cell(f.detail)}`));
    if (flags.length) append(out, ['', ...flags]);
    if (g.warnings.length) append(out, ['', ...g.warnings.map((w) => `> warning: ${cell(w)}`)]);
    out.push('');
  }
  if (r.diagnostics.count) out.push(`${r.diagnostics.count} input lines could not be read (see the JSON report).`, '');
  return `${out.join('\n')}\n`;
}

export function markdown(opts: SinkOptions): Transform {
  return reportSink(opts, renderMarkdown);
}
