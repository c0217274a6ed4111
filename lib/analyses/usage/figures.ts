// Usage's figures per session, for `compare`: tokens by kind, cost, and the
// main thread's wall time when the source recorded it.
import type { RunFigure, SessionFigures } from '../types.js';
import type { TokensSection } from './report-section.js';

export function* usageFigures(t: TokensSection): Iterable<SessionFigures> {
  for (const s of t.bySession) {
    const figures: RunFigure[] = [
      { key: 'tokens.input', label: 'input tokens', value: s.total.input, better: 'lower' },
      { key: 'tokens.output', label: 'output tokens', value: s.total.output, better: 'lower' },
      { key: 'tokens.cacheRead', label: 'cache-read tokens', value: s.total.cacheRead, better: 'lower' },
      { key: 'tokens.cacheCreation', label: 'cache-write tokens', value: s.total.cacheCreation, better: 'lower' },
    ];
    // A session none of whose models has a price has no cost to compare.
    if (s.cost.costUsd !== null) figures.push({ key: 'cost', label: 'cost (USD)', value: s.cost.costUsd, better: 'lower' });
    const wall = s.byThread.main?.wallMs;
    if (wall !== undefined) figures.push({ key: 'wall', label: 'wall time (ms)', value: wall, better: 'lower' });
    yield { session: s.session, figures };
  }
}
