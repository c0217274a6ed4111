// The reference grader's text layout — PASS / WARN /
// CORRUPT / FAIL per run, its flags, pass^k per task, a summary — with the
// task status words, the rules a source could not support, the τ-bench
// estimators and the gate.
import type { GradeSection } from './report-section.js';
import type { AnalysisItem } from '../../core/items.js';
import type { GradeItem } from './items.js';
import type { Verdict } from './verdicts.js';
import { deliveredText, passKText, VERDICTS } from './verdicts.js';
import { costWords } from '../../core/prices.js';
import { plain } from '../../core/style.js';
import type { Paint, Style } from '../../core/style.js';
import { printable } from '../../core/escape.js';
import { verifiedWords } from './evidence.js';

/** Why the judge axis is off, whatever the config says: every reporter that shows the axis says this. */
export const JUDGE_WHY = 'grading is by rules alone: no model is ever called, verified or not';

const RULE = '─'.repeat(60);
const MARK: Record<Verdict, string> = { 'clean-pass': 'PASS', 'pass-with-warnings': 'WARN', 'corrupt-success': 'CORRUPT', fail: 'FAIL' };
const py = (d: boolean | null): string => (d === null ? 'None' : d ? 'True' : 'False');

function estimates(e: Record<string, number>): string {
  const parts = Object.entries(e).map(([j, v]) => `${j}: ${v.toFixed(3)}`);
  return parts.length ? parts.join(' · ') : '—';
}

// Every name and detail comes from a transcript (or a path, or a config):
// escaped, so none can move the cursor or forge a line such as "gate: passed".
const p = printable;

/** Every reporter's words for a run graded without some of its subagents. */
export const incompleteWords = (n: number): string => `${n} subagent transcript${n === 1 ? '' : 's'} missing: graded on the rest`;

/** What the gate did, in words no reporter contradicts: never "passed" for an exit code that is not 0. */
export function gateWords(g: GradeSection): string {
  if (g.gate.failed) return 'FAILED';
  if (g.runs.length === 0) return 'NOT PASSED: nothing was graded';
  if (g.gate.exitCode !== 0) return 'NOT PASSED: an input could not be read';
  return 'passed';
}

const MARK_STYLE: Record<Verdict, Style> = { 'clean-pass': 'green', 'pass-with-warnings': 'yellow', 'corrupt-success': 'red', fail: 'red' };

export function renderGradeText(g: GradeSection, paint: Paint = plain): string {
  const out: string[] = ['TraceGrader report', RULE, `config: ${p(g.config)} · verified: ${p(verifiedWords(g))}`];
  if (g.rewardThreshold !== undefined) out.push(`delivered: a run whose reward is at least ${g.rewardThreshold} (reward_threshold)`);
  for (const r of g.runs) {
    const reward = r.reward !== undefined ? `reward=${r.reward}, ` : '';
    out.push(
      `[${paint(MARK_STYLE[r.verdict], MARK[r.verdict].padEnd(7))}] ${p(r.task)} / ${p(r.run)}  (delivered=${py(r.delivered)}, ${reward}steps=${r.steps}, flags=${r.flags.length})`,
    );
    if (r.infra !== undefined) out.push(`            - outside the agent: ${p(r.infra)}`);
    for (const f of r.flags) out.push(`            - ${f.severity.padEnd(6)} ${f.rule}: ${p(f.detail)}`);
    const unusual = Object.entries(r.threads ?? {}).filter(([, k]) => k === 'orphan' || k === 'internal');
    if (unusual.length)
      out.push(
        `            - threads: ${unusual.map(([t, k]) => `${p(t)} ${k === 'internal' ? 'internal (not graded)' : 'orphan (no delegation links it)'}`).join(' · ')}`,
      );
    if (r.missingSubagents) out.push(`            - incomplete: ${incompleteWords(r.missingSubagents)}`);
    if (r.notEvaluated.length)
      out.push(
        `            - not evaluated: ${p(r.notEvaluated.join(', '))} (the ${p(r.source)} source records no ${r.notEvaluated.includes('retry_storm') ? 'outcomes' : 'reads'})`,
      );
  }
  out.push(RULE, 'pass^k (repeatability — ALL k runs must deliver):');
  for (const t of g.tasks) out.push(`    ${p(t.task)}: pass^${t.k} = ${passKText(t.passK)}  (${deliveredText(t)}) · ${t.status}`);
  const v = g.summary.verdicts;
  const s = g.summary.statuses;
  out.push(
    RULE,
    `summary: runs=${g.summary.runs} tasks=${g.summary.tasks} | clean=${v['clean-pass']} warn=${v['pass-with-warnings']} corrupt=${v['corrupt-success']} fail=${v.fail} | repeatable=${s.repeatable} flaky=${s.flaky} failing=${s.failing} unverified=${s.unverified}`,
    `pass^j ${estimates(g.summary.passHat)} | pass@j ${estimates(g.summary.passAt)} | pass^j, corrupt-success as failed: ${estimates(g.summary.passHatGated)}`,
    `agent-as-judge axis: disabled (${JUDGE_WHY})`,
  );
  const costs = costByVerdict(g);
  if (costs) out.push(`cost by verdict: ${costs}`);
  for (const w of g.warnings) out.push(`warning: ${p(w)}`);
  out.push(
    `gate: ${paint(g.gate.exitCode === 0 ? 'green' : 'red', gateWords(g))} (${g.gate.exitCode === 0 ? '' : `exit ${g.gate.exitCode}, `}fail-on ${g.failOn.join(',')})`,
  );
  for (const reason of g.gate.reasons) out.push(`  - ${p(reason)}`);
  return `${out.join('\n')}\n`;
}

/** What the runs of each verdict cost (the runs that record usage), or undefined when none does. */
export function costByVerdict(g: GradeSection): string | undefined {
  const parts: string[] = [];
  for (const verdict of VERDICTS) {
    const runs = g.runs.filter((r) => r.verdict === verdict && r.usage);
    if (!runs.length) continue;
    const priced = runs.filter((r) => r.usage!.costUsd !== null);
    const usd = priced.length ? priced.reduce((s, r) => Math.min(s + r.usage!.costUsd!, Number.MAX_VALUE), 0) : null;
    const unpriced = [...new Set(runs.flatMap((r) => r.usage!.unpriced ?? []))].sort();
    // A lower bound is marked as the usage block marks it.
    const bound = usd !== null && runs.some((r) => !r.usage!.exact) ? '≥' : '';
    parts.push(`${verdict} ${bound}${costWords(usd, unpriced, p)} (${runs.length} run${runs.length === 1 ? '' : 's'})`);
  }
  return parts.length ? parts.join(' · ') : undefined;
}

/** One line for a flag or a graded run the moment it is decided, for a followed run. */
export function gradeLiveLine(item: AnalysisItem): string | undefined {
  const it = item as GradeItem;
  if (it.kind === 'finding') {
    const f = it.data.flag;
    return `grade ${p(it.data.run)} step ${f.step} ${f.severity} ${f.rule}: ${p(f.detail)}\n`;
  }
  if (it.kind === 'result') {
    const r = it.data.result;
    return `grade ${p(r.run)}: ${r.verdict} (${r.steps} steps, ${r.flags.length} flags)\n`;
  }
  return undefined;
}
