// Residual context occupancy (CodeGraph's CG-7), per thread: how many
// tokens of each thread's final context window each tool family's results
// still occupy. gaps.ts reads a window's timeline, residual.ts does the
// arithmetic, reader.ts feeds each thread its own events; docs/occupancy.md
// states the rules.
import { z } from 'zod';
import type { AnalysisItem } from '../../core/items.js';
import type { Analysis, MergeEnv, SectionCollector, SessionVerdict } from '../types.js';
import { OCCUPANCY, OccupancyReader } from './reader.js';
import type { OccupancySummary, ThreadOccupancy } from './reader.js';
import { occupancyBlock } from './render-text.js';
import { occupancyMarkdown } from './render-markdown.js';
import { occupancySectionSchema } from './report-section.js';
import type { OccupancySection } from './report-section.js';

export { occupancySectionSchema } from './report-section.js';
export type { OccupancySection } from './report-section.js';
import { printable } from '../../core/escape.js';
import { occupancyFigures } from './figures.js';
import { byRank } from '../../core/arrays.js';

export interface OccupancyOptions {
  /** The context window, in tokens, as the config sets it; unset, a session whose model name says 1M has 1M, any other the default. */
  readonly window?: number;
}

/** The reference's window (`CG_WINDOW_TOKENS`). */
export const DEFAULT_WINDOW = 200_000;
/** The window of a model whose name says it has a 1M context. */
export const MILLION_WINDOW = 1_000_000;

export const occupancyConfig = {
  occupancy: z.strictObject({ window: z.number().int().positive().optional() }).nullable().optional(),
};

class OccupancyCollector implements SectionCollector<OccupancySection> {
  readonly #window: number;
  /** The config set the window: a model's name does not override it. */
  readonly #configured: boolean;
  #bySession: OccupancySection['bySession'] = [];

  constructor(o: OccupancyOptions) {
    this.#window = o.window ?? DEFAULT_WINDOW;
    this.#configured = o.window !== undefined;
  }

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as OccupancySummary;
    if (it.kind !== 'summary' || session.duplicate) return;
    const model = this.#configured ? undefined : it.data.model;
    this.#bySession.push({ session: it.session, ...(model === undefined ? {} : { window: MILLION_WINDOW, windowModel: model }), threads: it.data.threads as ThreadOccupancy[] });
  }

  forget(session: string): void {
    this.#bySession = this.#bySession.filter((s) => s.session !== session);
  }

  build(): OccupancySection {
    return { window: this.#window, bySession: [...this.#bySession] };
  }
}

function renderText(s: OccupancySection): string {
  const blocks: string[] = [];
  for (const entry of s.bySession) {
    if (s.bySession.length > 1) blocks.push(`  session ${printable(entry.session)}:\n`);
    for (const t of entry.threads) blocks.push(occupancyBlock(t as ThreadOccupancy, entry.window ?? s.window, entry.windowModel));
  }
  return blocks.length ? blocks.join('') : '  Residual context occupancy: no model request read\n';
}

export const occupancyAnalysis: Analysis<OccupancyOptions, OccupancySection, 'occupancy'> = {
  name: OCCUPANCY,
  key: 'occupancy',
  config: occupancyConfig,
  logic: () => new OccupancyReader(),
  // It reads every result's length, never its text.
  resultText: () => () => false,
  resultChars: true,
  section: occupancySectionSchema,
  collector: (o) => new OccupancyCollector(o),
  runFigures: occupancyFigures,
  merge: (a, b, env: MergeEnv) => {
    if (a && b && a.window !== b.window) throw new Error(`reports made with different occupancy windows (${a.window} and ${b.window} tokens) do not merge`);
    return { window: a?.window ?? b?.window ?? DEFAULT_WINDOW, bySession: [...(a?.bySession ?? []), ...(b?.bySession ?? []).filter((s) => !env.inFirst(s.session))] };
  },
  reorder: (o, rank) => ({ ...o, bySession: byRank(o.bySession, (s) => s.session, rank) }),
  render: {
    text: renderText,
    markdown: (s) => ({ body: occupancyMarkdown(s) }),
    // Each session's threads as it ends; the summary keeps the window.
    ndjsonItem: (item: AnalysisItem) => (item.kind === 'summary' ? { type: 'occupancy', session: item.session, threads: (item as OccupancySummary).data.threads } : undefined),
    ndjsonSummary: ({ bySession: _b, ...rest }) => rest,
  },
};
