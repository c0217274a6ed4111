// Usage in every reporter: a text block, a Markdown table, and a JUnit
// testsuite with no tests whose properties carry the figures (CI pages show
// a suite's properties beside its results). Each shows the cost by the price
// table beside the one the agent reported, marks a figure that is only a
// lower bound with `≥` and says why, and names a model without a price
// beside the cost, which then counts only the priced ones (never `$0`).
import type { Paint } from '../../core/style.js';
import { markdownText as cell, printable, xmlText } from '../../core/escape.js';
import type { JunitPart } from '../types.js';
import type { TokensSection } from './report-section.js';
import { costWords, formatUsd } from '../../core/prices.js';

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (k: number, word: string): string => `${n(k)} ${word}${k === 1 ? '' : 's'}`;

/** A lower bound's mark. */
const AT_LEAST = '≥';
const bound = (exact: boolean): string => (exact ? '' : AT_LEAST);

const costText = (c: { costUsd: number | null; unpriced?: string[] }, show: (s: string) => string, exact = true): string => `${c.costUsd === null ? '' : bound(exact)}${costWords(c.costUsd, c.unpriced ?? [], show)}`;
const modelCost = (usd: number | null, exact: boolean): string => (usd === null ? 'no price' : `${bound(exact)}${formatUsd(usd)}`);

/** Why a `≥` figure is one, said once under the figures. */
export const LOWER_BOUND_NOTE = `${AT_LEAST}: a lower bound — Claude Code's stream-json (and older session files) record a message's output tokens before the message ends, and no result says the rest`;
export const UNATTRIBUTED_NOTE = "counted by the agent's own report (Claude Code's result) and by no thread here: subagents' output written after the stream's snapshots, Claude Code's own requests";

/** How many entries of a breakdown the text and Markdown show before "… N more". */
const SHOWN = 12;

function byCostThenName<T extends { costUsd: number | null }>(entries: Array<[string, T]>): Array<[string, T]> {
  return entries.sort(([a, x], [b, y]) => (y.costUsd ?? -1) - (x.costUsd ?? -1) || (a < b ? -1 : a > b ? 1 : 0));
}

/** `$0.48 by the price table · Claude Code reported $0.83`, or the first alone. */
function costs(s: TokensSection, show: (s: string) => string, strong = (x: string): string => x): string {
  const ours = `${strong(costText(s.cost, show, s.exact))}${s.reported ? ' by the price table' : ''}`;
  return s.reported ? `${ours} · Claude Code reported ${formatUsd(s.reported.costUsd)}` : ours;
}

function tokenLine(s: TokensSection): string {
  const t = s.total;
  return `${plural(t.messages, 'request')} · ${n(t.input)} input · ${bound(s.exact)}${n(t.output)} output · ${n(t.cacheRead)} cache read · ${n(t.cacheCreation)} cache write tokens`;
}

const unattributedTokens = (u: NonNullable<TokensSection['unattributed']>): string => [`${n(u.input)} input`, `${n(u.output)} output`, `${n(u.cacheRead)} cache read`, `${n(u.cacheCreation)} cache write`].filter((x) => !x.startsWith('0 ')).join(' · ');

const anyBound = (s: TokensSection): boolean => !s.exact || Object.values(s.byAgentType).some((a) => !a.exact);

export function renderUsageText(s: TokensSection, _paint?: Paint, indent = '  '): string {
  const lines = [`${indent}Usage: ${tokenLine(s)} · ${costs(s, printable)}`];
  const agents = byCostThenName(Object.entries(s.byAgentType));
  if (agents.length > 1 || (agents.length === 1 && agents[0]![0] !== 'main') || (agents.length === 1 && s.unattributed)) {
    const shown = agents.slice(0, SHOWN).map(([type, a]) => `${printable(type)} ${plural(a.messages, 'request')} ${costText(a, printable, a.exact)}${type === 'main' ? '' : ` (${plural(a.threads, 'thread')})`}`);
    lines.push(`${indent}  by agent: ${shown.join(' · ')}${agents.length > SHOWN ? ` · … ${agents.length - SHOWN} more` : ''}`);
  }
  const models = byCostThenName(Object.entries(s.byModel));
  if (models.length) {
    const shown = models.slice(0, SHOWN).map(([model, m]) => `${printable(model)} ${plural(m.messages, 'request')} ${modelCost(m.costUsd, s.exact)}`);
    lines.push(`${indent}  by model: ${shown.join(' · ')}${models.length > SHOWN ? ` · … ${models.length - SHOWN} more` : ''}`);
  }
  if (s.unattributed) lines.push(`${indent}  unattributed: ${unattributedTokens(s.unattributed)} tokens ${costText(s.unattributed, printable)} — ${UNATTRIBUTED_NOTE}`);
  if (anyBound(s)) lines.push(`${indent}  ${LOWER_BOUND_NOTE}`);
  for (const w of s.warnings ?? []) lines.push(`${indent}  warning: ${printable(w)}`);
  return `${lines.join('\n')}\n`;
}

export function usageMarkdown(s: TokensSection): string[] {
  const out = ['### Usage', '', `${tokenLine(s)} · ${costs(s, cell, (x) => `**${x}**`)}`, ''];
  for (const w of s.warnings ?? []) out.push(`> **Warning:** ${cell(w)}`, '');
  const agents = byCostThenName(Object.entries(s.byAgentType));
  if (agents.length) {
    out.push('| agent | threads | requests | input | output | cache read | cache write | cost |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [type, a] of agents.slice(0, SHOWN)) out.push(`| ${cell(type)} | ${a.threads} | ${n(a.messages)} | ${n(a.input)} | ${bound(a.exact)}${n(a.output)} | ${n(a.cacheRead)} | ${n(a.cacheCreation)} | ${costText(a, cell, a.exact)} |`);
    const u = s.unattributed;
    if (u) out.push(`| (unattributed) | – | – | ${n(u.input)} | ${n(u.output)} | ${n(u.cacheRead)} | ${n(u.cacheCreation)} | ${costText(u, cell)} |`);
    out.push('');
  }
  const models = byCostThenName(Object.entries(s.byModel));
  if (models.length) {
    out.push('| model | requests | cost |', '|---|---:|---:|');
    for (const [model, m] of models.slice(0, SHOWN)) out.push(`| ${cell(model)} | ${n(m.messages)} | ${modelCost(m.costUsd, s.exact)} |`);
    out.push('');
  }
  if (s.unattributed) out.push(`(unattributed): ${UNATTRIBUTED_NOTE}.`, '');
  if (anyBound(s)) out.push(`${LOWER_BOUND_NOTE}.`, '');
  return out;
}

export function usageJunit(s: TokensSection): JunitPart {
  const prop = (name: string, value: string | number | boolean): string => `<property name="${xmlText(name)}" value="${xmlText(String(value))}"/>`;
  const t = s.total;
  const props = [prop('requests', t.messages), prop('inputTokens', t.input), prop('outputTokens', t.output), prop('cacheReadTokens', t.cacheRead), prop('cacheWriteTokens', t.cacheCreation), prop('exact', s.exact)];
  // No price at all is no figure, never 0.
  if (s.cost.costUsd !== null) props.push(prop('costUsd', s.cost.costUsd));
  if (s.reported) props.push(prop('reportedCostUsd', s.reported.costUsd));
  if (s.unattributed) props.push(prop('unattributedOutputTokens', s.unattributed.output));
  // JSON lists: a model's name may hold a comma.
  if (s.cost.unpriced?.length) props.push(prop('unpricedModels', JSON.stringify(s.cost.unpriced)));
  if (s.warnings?.length) props.push(prop('costWarnings', JSON.stringify(s.warnings)));
  return { suites: [`  <testsuite name="usage" tests="0" failures="0" errors="0">`, `    <properties>${props.join('')}</properties>`, '  </testsuite>'], tests: 0, failures: 0 };
}
