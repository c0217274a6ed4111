// Token usage and cost per session, thread, model and agent type: each API
// message counted once, with its last usage, priced by the price table
// (lib/core/model-prices.ts, and agent-eval.yaml's `usage.prices`). Its report
// section keeps the name `tokens`. docs/usage.md states the rules.
import type { Analysis } from '../types.js';
import type { Registration } from '../registration.js';
import { DEFAULT_PRICES } from '../../core/model-prices.js';
import { UsageCounter } from './logic.js';
import { usageOptionsFrom } from './options.js';
import type { UsageOptions } from './options.js';
import { usageConfig } from './config.js';
import { USAGE } from './items.js';
import { mergeUsage, UsageCollector, usageSection } from './collect.js';
import { tokensSectionSchema } from './report-section.js';
import type { TokensSection } from './report-section.js';
import { renderUsageText } from './render-text.js';
import { usageMarkdown } from './render-markdown.js';
import { usageJunit } from './render-junit.js';
import { usageFigures } from './figures.js';
import { byRank } from '../../core/arrays.js';

export const usageAnalysis: Analysis<UsageOptions, TokensSection, 'tokens', 'usage', typeof usageConfig> = {
  name: USAGE,
  key: 'tokens',
  config: usageConfig,
  logic: (o) => new UsageCounter(o),
  resultText: () => () => false,
  section: tokensSectionSchema,
  collector: (o) => new UsageCollector(o),
  runFigures: usageFigures,
  merge: mergeUsage,
  reorder: (t, rank) => usageSection(byRank(t.bySession, (s) => s.session, rank)),
  render: {
    text: renderUsageText,
    markdown: (s) => ({ body: usageMarkdown(s) }),
    junit: usageJunit,
    ndjsonSummary: ({ bySession: _bySession, ...rest }) => rest,
  },
};

export const usageRegistration = {
  analysis: usageAnalysis,
  runs: 'always',
  title: 'token usage',
  page: 'usage.md',
  options: usageOptionsFrom,
  defaultOptions: () => ({ prices: DEFAULT_PRICES }),
} satisfies Registration<UsageOptions, unknown, 'usage'>;
