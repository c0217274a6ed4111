// Usage in every reporter: a text block, a Markdown table, and a JUnit
// testsuite with no tests whose properties carry the figures (CI pages show
// a suite's properties beside its results). A model without a price is said
// so beside the cost, which then counts only the priced ones.
import type { Paint } from '../../core/style.js';
import { markdownText as cell, printable, xmlText } from '../../core/escape.js';
import type { JunitPart } from '../types.js';
import type { TokensSection } from './report-section.js';
import { costWords, formatUsd } from '../../core/prices.js';

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (k: number, word: string): string => `${n(k)} ${word}${k === 1 ? '' : 's'}`;

const usd = formatUsd;

const costText = (c: { costUsd: number; unpriced?: string[] }, show: (s: string) => string): string => costWords(c.costUsd, c.unpriced ?? [], show);

/** How many entries of a breakdown the text and Markdown show before "… N more". */
const SHOWN = 12;

function byCostThenName<T extends { costUsd: number | null }>(entries: Array<[string, T]>): Array<[string, T]> {
  return entries.sort(([a, x], [b, y]) => (y.costUsd ?? -1) - (x.costUsd ?? -1) || (a < b ? -1 : a > b ? 1 : 0));
}

export function renderUsageText(s: TokensSection, _paint?: Paint, indent = '  '): string {
  const t = s.total;
  const lines = [`${indent}Usage: ${plural(t.messages, 'request')} · ${n(t.input)} input · ${n(t.output)} output · ${n(t.cacheRead)} cache read · ${n(t.cacheCreation)} cache write tokens · ${costText(s.cost, printable)}`];
  const agents = byCostThenName(Object.entries(s.byAgentType));
  if (agents.length > 1 || (agents.length === 1 && agents[0]![0] !== 'main')) {
    const shown = agents.slice(0, SHOWN).map(([type, a]) => `${printable(type)} ${plural(a.messages, 'request')} ${costText(a, printable)}${type === 'main' ? '' : ` (${plural(a.threads, 'thread')})`}`);
    lines.push(`${indent}  by agent: ${shown.join(' · ')}${agents.length > SHOWN ? ` · … ${agents.length - SHOWN} more` : ''}`);
  }
  const models = byCostThenName(Object.entries(s.byModel));
  if (models.length) {
    const shown = models.slice(0, SHOWN).map(([model, m]) => `${printable(model)} ${plural(m.messages, 'request')} ${m.costUsd === null ? 'no price' : usd(m.costUsd)}`);
    lines.push(`${indent}  by model: ${shown.join(' · ')}${models.length > SHOWN ? ` · … ${models.length - SHOWN} more` : ''}`);
  }
  if (s.reported) lines.push(`${indent}  Claude Code reported: ${usd(s.reported.costUsd)} (its own figure, not counted above)`);
  return `${lines.join('\n')}\n`;
}

export function usageMarkdown(s: TokensSection): string[] {
  const t = s.total;
  const out = ['### Usage', '', `${plural(t.messages, 'request')} · ${n(t.input)} input · ${n(t.output)} output · ${n(t.cacheRead)} cache read · ${n(t.cacheCreation)} cache write tokens · **${costText(s.cost, cell)}**`, ''];
  const agents = byCostThenName(Object.entries(s.byAgentType));
  if (agents.length) {
    out.push('| agent | threads | requests | input | output | cache read | cache write | cost |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [type, a] of agents.slice(0, SHOWN)) out.push(`| ${cell(type)} | ${a.threads} | ${n(a.messages)} | ${n(a.input)} | ${n(a.output)} | ${n(a.cacheRead)} | ${n(a.cacheCreation)} | ${costText(a, cell)} |`);
    out.push('');
  }
  const models = byCostThenName(Object.entries(s.byModel));
  if (models.length) {
    out.push('| model | requests | cost |', '|---|---:|---:|');
    for (const [model, m] of models.slice(0, SHOWN)) out.push(`| ${cell(model)} | ${n(m.messages)} | ${m.costUsd === null ? 'no price' : usd(m.costUsd)} |`);
    out.push('');
  }
  if (s.reported) out.push(`Claude Code reported ${usd(s.reported.costUsd)} (its own figure, not counted above).`, '');
  return out;
}

export function usageJunit(s: TokensSection): JunitPart {
  const prop = (name: string, value: string | number): string => `<property name="${xmlText(name)}" value="${xmlText(String(value))}"/>`;
  const t = s.total;
  const props = [prop('requests', t.messages), prop('inputTokens', t.input), prop('outputTokens', t.output), prop('cacheReadTokens', t.cacheRead), prop('cacheWriteTokens', t.cacheCreation), prop('costUsd', s.cost.costUsd)];
  // A JSON list: a model's name may hold a comma.
  if (s.cost.unpriced?.length) props.push(prop('unpricedModels', JSON.stringify(s.cost.unpriced)));
  return { suites: [`  <testsuite name="usage" tests="0" failures="0" errors="0">`, `    <properties>${props.join('')}</properties>`, '  </testsuite>'], tests: 0, failures: 0 };
}
