// Tool-response sufficiency: for every call of a probe tool, the agent's next
// substantive call in the same thread is a verdict on the response. The
// rules live in logic.ts and reaction.ts; docs/sufficiency.md states them.
import type { Analysis } from '../types.js';
import type { Registration } from '../registration.js';
import type { AnalysisItem } from '../../core/items.js';
import { SufficiencyAnalyzer } from './logic.js';
import { probeSpecs, sufficiencyOptionsFrom } from './options.js';
import { readSufficiencyFlags, SUFFICIENCY_FLAGS } from './flags.js';
import type { SufficiencyFlags } from './flags.js';
import type { SufficiencyOptions } from './options.js';
import { sufficiencyConfig } from './config.js';
import { sufficiencySectionSchema } from './report-section.js';
import { mergeSufficiency, reorderSufficiency, SufficiencyCollector } from './collect.js';
import type { ProbeSection, SufficiencySection } from './report-section.js';
import { sufficiencyTextPieces, sufficiencyLiveLine } from './render-text.js';
import { sufficiencyMarkdown } from './render-markdown.js';
import { sufficiencyEvaluations } from './render-otel.js';
import { SUFFICIENCY } from './items.js';
import type { SufficiencyItem } from './items.js';
import { sufficiencyFigures } from './figures.js';

export const sufficiencyAnalysis: Analysis<SufficiencyOptions, SufficiencySection, 'sufficiency', 'sufficiency', typeof sufficiencyConfig> = {
  name: SUFFICIENCY,
  key: 'sufficiency',
  config: sufficiencyConfig,
  logic: (o) => new SufficiencyAnalyzer(o),
  // A probe's response is the subject; a Read's error says whether it met a directory (error text is always read).
  // A listing profile finds paths by ASCII patterns alone: its responses may be read as bytes.
  resultText: (o) => {
    const { specs } = probeSpecs(o);
    return (name, input) => {
      const spec = specs.find((s) => s.matches({ id: '', name, input: input ?? {}, thread: '' }));
      return spec === undefined ? false : spec.profile.bytes ? 'bytes' : true;
    };
  },
  section: sufficiencySectionSchema,
  collector: (o, c) => {
    const { specs, single } = probeSpecs(o);
    return new SufficiencyCollector(
      specs.map((s) => ({ name: s.name, profile: s.profile.name })),
      single,
      c.keepDetail,
      c.spill,
    );
  },
  runFigures: sufficiencyFigures,
  merge: mergeSufficiency,
  reorder: (s, rank) => reorderSufficiency(s, rank),
  render: {
    text: (s) => sufficiencyTextPieces(s),
    live: sufficiencyLiveLine,
    markdown: (s) => ({ body: sufficiencyMarkdown(s) }),
    evaluations: sufficiencyEvaluations,
    ndjsonItem: (item: AnalysisItem) => {
      const it = item as SufficiencyItem;
      return it.kind === 'finding' ? { type: 'finding', analysis: SUFFICIENCY, probe: it.data.probe, ...it.data.call } : undefined;
    },
    ndjsonSummary: (s) => {
      const counts = ({ calls: _calls, bySession: _bySession, ...rest }: ProbeSection): Record<string, unknown> => rest;
      return 'probes' in s ? { tools: s.tools, probes: s.probes.map(counts) } : counts(s);
    },
  },
};

export const sufficiencyRegistration = {
  analysis: sufficiencyAnalysis,
  runs: 'by default',
  page: 'sufficiency.md',
  flags: SUFFICIENCY_FLAGS,
  readFlags: readSufficiencyFlags,
  options: sufficiencyOptionsFrom,
  // Every built-in probe profile.
  defaultOptions: () => ({}),
} satisfies Registration<SufficiencyOptions, SufficiencyFlags, 'sufficiency'>;
