// Occupancy's figures per session, for `compare`: what each tool family's
// results still occupy of the main thread's final context, in tokens.
import type { SessionFigures } from '../types.js';
import { FAMILIES } from './gaps.js';
import type { OccupancySection } from './report-section.js';

export function* occupancyFigures(o: OccupancySection): Iterable<SessionFigures> {
  for (const s of o.bySession) {
    const main = s.threads.find((t) => t.thread === 'main');
    if (!main) continue;
    yield {
      session: s.session,
      figures: [
        { key: 'occupancy.final', label: 'final context (tokens)', value: main.ctxFinal, better: 'lower' },
        ...FAMILIES.map((f) => ({ key: `occupancy.${f}`, label: `${f} results in context (tokens)`, value: main.residual[f], better: 'lower' as const })),
      ],
    };
  }
}
