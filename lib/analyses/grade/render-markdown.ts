// The grade section of the Markdown summary: the gate first in the page,
// then runs, tasks, flags and warnings in the section's place.
import { markdownText as cell } from '../../core/escape.js';
import { append } from '../../core/arrays.js';
import { passKText } from './verdicts.js';
import { gateWords, incompleteWords, JUDGE_WHY } from './render-text.js';
import type { GradeSection } from './report-section.js';
import { verifiedWords } from './evidence.js';

export function gradeMarkdown(g: GradeSection): { head: string[]; body: string[] } {
  const head = [
    g.gate.failed
      ? `**Gate failed** (exit ${g.gate.exitCode}): ${g.gate.reasons.map(cell).join('; ')}`
      : g.gate.exitCode === 0
        ? '**Gate passed**'
        : `**Gate ${gateWords(g).toLowerCase()}** (exit ${g.gate.exitCode})`,
    '',
  ];
  const out = [
    '### Trajectory grading',
    '',
    `config: ${cell(g.config)} · verified: ${cell(verifiedWords(g))} · agent-as-judge axis: disabled (${JUDGE_WHY})`,
    ...(g.rewardThreshold !== undefined ? ['', `A run is delivered when its reward is at least ${g.rewardThreshold} (reward_threshold).`] : []),
    '',
    '| run | task | delivered | verdict | steps | flags |',
    '|---|---|---|---|---:|---|',
  ];
  for (const run of g.runs)
    out.push(
      `| ${cell(run.run)}${run.missingSubagents ? ` (incomplete: ${incompleteWords(run.missingSubagents)})` : ''} | ${cell(run.task)} | ${run.delivered ?? '?'}${run.reward !== undefined ? ` (reward ${run.reward})` : ''} | ${run.verdict} | ${run.steps} | ${run.flags.map((f) => `${f.rule} @${f.step}`).join(', ') || '—'} |`,
    );
  out.push('', '| task | k | delivered | pass^k | status |', '|---|---:|---:|---|---|');
  for (const t of g.tasks) out.push(`| ${cell(t.task)} | ${t.k} | ${t.delivered} | ${passKText(t.passK)} | ${t.status} |`);
  const flags = g.runs.flatMap((run) => run.flags.map((f) => `- run ${cell(run.run)} step ${f.step} **${f.rule}** (${f.severity}): ${cell(f.detail)}`));
  if (flags.length) append(out, ['', ...flags]);
  if (g.warnings.length) append(out, ['', ...g.warnings.map((w) => `> warning: ${cell(w)}`)]);
  out.push('');
  return { head, body: out };
}
