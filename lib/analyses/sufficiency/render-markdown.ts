// The sufficiency section of the Markdown summary: the bucket table.
import { markdownText } from '../../core/escape.js';
import { BUCKET_TABLE } from './reaction.js';
import type { SufficiencySection } from './report-section.js';

const pct = (n: number, of: number): string => (of ? `${((n / of) * 100).toFixed(0)}%` : '—');

export function sufficiencyMarkdown(s: SufficiencySection): string[] {
  const out = [`### Tool-response sufficiency (${s.answered} answered ${markdownText(s.probe)} calls)`, '', '| bucket | calls | share |', '|---|---:|---:|'];
  for (const [key, label] of BUCKET_TABLE) out.push(`| ${label} | ${s.buckets[key]} | ${pct(s.buckets[key], s.answered)} |`);
  out.push('', `errors ${s.errors} · unjudged ${s.unjudged} · pending ${s.pending} · concurrent ${s.concurrent}`, '');
  return out;
}
