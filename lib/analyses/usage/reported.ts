// What Claude Code reported a session used, summed the way its counters
// run. A `result`'s `total_cost_usd` and `modelUsage` are cumulative over
// one Claude Code process, so a session's figure is its last result's —
// until a counter starts again: a `--resume` in a new process may restore
// the counters or start them from zero, and a transcript does not say
// which. A snapshot that has not grown by what the result's own turn used
// (or is below the one before it in any figure of any model, or in cost)
// is a new counter, and the finished one is added to it.
import type { ModelUsage, ReportedUsage } from './token-counts.js';
import { add, addReported } from './token-counts.js';

/** A snapshot of Claude Code's counters: its cost, (newer versions) per model, and the turn its result closes. */
export interface ReportedSnapshot {
  readonly costUsd?: number | undefined;
  readonly byModel?: Readonly<Record<string, ModelUsage>> | undefined;
  readonly turn?: Readonly<Omit<ModelUsage, 'costUsd'>> | undefined;
  /** Some models' figures were left out (not counts): a model missing from it is no sign of a new counter. */
  readonly dropped?: boolean | undefined;
}

const KINDS = ['input', 'output', 'cacheRead', 'cacheCreation', 'costUsd'] as const;
const TOKENS = ['input', 'output', 'cacheRead', 'cacheCreation'] as const;

const summed = (s: ReportedSnapshot, k: (typeof TOKENS)[number]): number => Object.values(s.byModel ?? {}).reduce((n, m) => add(n, m[k]), 0);

function startedAgain(before: ReportedSnapshot, now: ReportedSnapshot): boolean {
  if (before.costUsd !== undefined && now.costUsd !== undefined && now.costUsd < before.costUsd) return true;
  if (!before.byModel) return false;
  const models = new Map(Object.entries(now.byModel ?? {}));
  for (const [model, b] of Object.entries(before.byModel)) {
    const n = models.get(model);
    if (!n ? now.dropped !== true : KINDS.some((k) => n[k] < b[k])) return true;
  }
  // Counters that ran on count the turn's requests on top of what they had.
  const turn = now.turn;
  return turn !== undefined && now.byModel !== undefined && TOKENS.some((k) => summed(now, k) < add(summed(before, k), turn[k]));
}

/** A snapshot that gives no total cost costs what its models do. */
function asReported(s: ReportedSnapshot): ReportedUsage {
  const byModel = { ...(s.byModel ?? {}) };
  return { costUsd: s.costUsd ?? Object.values(byModel).reduce((sum, m) => add(sum, m.costUsd), 0), byModel };
}

export class ReportedCounters {
  /** Counters that ran out and started again: their last figures, summed. */
  #finished: ReportedUsage | undefined;
  #last: ReportedSnapshot | undefined;

  add(snapshot: ReportedSnapshot): void {
    if (snapshot.costUsd === undefined && snapshot.byModel === undefined) return;
    const before = this.#last;
    // A model left out for figures that were no counts is at least what it was.
    const s = snapshot.dropped && before?.byModel ? { ...snapshot, byModel: { ...before.byModel, ...snapshot.byModel } } : snapshot;
    if (before && startedAgain(before, s)) this.#finished = this.#finished ? addReported(this.#finished, asReported(before)) : asReported(before);
    this.#last = s;
  }

  /** The session's figures, or undefined when nothing was reported. */
  get value(): ReportedUsage | undefined {
    if (!this.#last) return this.#finished;
    const last = asReported(this.#last);
    return this.#finished ? addReported(this.#finished, last) : last;
  }
}
