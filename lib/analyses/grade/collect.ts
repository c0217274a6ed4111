// The grade section from a stream, and two sections merged. Runs are kept
// per session; everything else in the section (tasks, pass^k, the gate) is
// derived from them when it is built, so merging is concatenating runs with
// each session counted once.
import type { AnalysisItem } from '../../core/items.js';
import { append } from '../../core/arrays.js';
import type { MergeEnv, SectionCollector, SectionEnv, SessionVerdict } from '../types.js';
import type { GradeItem, PatternStat } from './items.js';
import type { GradeReportOptions, GradeSection } from './report-section.js';
import { addPatternStats, gradeSection, subtractPatternStats } from './report-section.js';
import { DEFAULT_REWARD_THRESHOLD } from '../../core/reward.js';
import type { RunResult } from './verdicts.js';

/** A run as a lean collector keeps it: no more than the gate's reasons need. */
function lean(r: RunResult): RunResult {
  return { ...r, stepsByThread: {}, flags: r.flags.filter((f) => f.severity === 'high') };
}

/**
 * A session met twice (its stream-json and its session file) counts once, as
 * its first copy — unless only the other copy knows whether the run
 * delivered (stream-json's result does, a session file does not): then its
 * runs are the ones kept, whatever order the inputs came in.
 */
export function preferKnownOutcome<R extends Pick<RunResult, 'session' | 'delivered'>>(runs: R[], session: string, again: readonly R[]): R[] {
  const kept = runs.filter((r) => r.session === session);
  if (!again.some((r) => r.delivered !== null) || kept.some((r) => r.delivered !== null)) return runs;
  return [...runs.filter((r) => r.session !== session), ...again];
}

export class GradeCollector implements SectionCollector<GradeSection> {
  readonly #opts: GradeReportOptions;
  readonly #keep: boolean;
  #buffer: RunResult[] = [];
  #runs: RunResult[] = [];
  #patterns: Record<string, PatternStat> = {};
  #misses: string[] = [];
  /** Pattern counts of sessions a re-read may replace (a followed file that restarted). */
  #replaceable = new Map<string, Record<string, PatternStat>>();

  constructor(opts: GradeReportOptions, keep: boolean) {
    this.#opts = opts;
    this.#keep = keep;
  }

  add(item: AnalysisItem, session: SessionVerdict): void {
    const it = item as GradeItem;
    if (it.kind === 'result') {
      this.#buffer.push(this.#keep ? it.data.result : lean(it.data.result));
      return;
    }
    if (it.kind !== 'summary') return;
    // A session's runs are committed at its summary, once it is known not to be a duplicate.
    if (session.duplicate) this.#runs = preferKnownOutcome(this.#runs, it.session, this.#buffer);
    else {
      append(this.#runs, this.#buffer);
      this.#patterns = addPatternStats(this.#patterns, it.data.patterns);
      if (session.replaceable) this.#replaceable.set(it.session, it.data.patterns);
      append(this.#misses, it.data.taskPatternMisses);
    }
    this.#buffer = [];
  }

  forget(session: string): void {
    this.#patterns = subtractPatternStats(this.#patterns, this.#replaceable.get(session));
    this.#replaceable.delete(session);
    this.#runs = this.#runs.filter((r) => r.session !== session);
  }

  build(env: SectionEnv): GradeSection {
    return gradeSection(this.#opts, [...this.#runs], { ...this.#patterns }, [...this.#misses], env.inputErrors);
  }
}

/** a's runs, then b's of new sessions; a session in both keeps a's copy unless only b's knows the outcome. */
export function mergedRuns<R extends Pick<RunResult, 'session' | 'delivered'>>(a: readonly R[], b: readonly R[], isNew: (session: string) => boolean): R[] {
  let runs = [...a, ...b.filter((r) => isNew(r.session))];
  for (const session of new Set(b.map((r) => r.session))) {
    if (!isNew(session))
      runs = preferKnownOutcome(
        runs,
        session,
        b.filter((r) => r.session === session),
      );
  }
  return runs;
}

export function mergeGrade(a: GradeSection | undefined, b: GradeSection | undefined, env: MergeEnv): GradeSection {
  const g = (a ?? b)!;
  return gradeSection(
    {
      config: g.config,
      verified: g.verified,
      ...(g.calibration ? { calibration: g.calibration } : {}),
      failOn: g.failOn,
      rewardThreshold: a?.rewardThreshold ?? b?.rewardThreshold ?? DEFAULT_REWARD_THRESHOLD,
    },
    mergedRuns(a?.runs ?? [], b?.runs ?? [], (s) => !env.inFirst(s)),
    addPatternStats(a?.patterns ?? {}, b?.patterns ?? {}),
    [...(a?.taskPatternMisses ?? []), ...(b?.taskPatternMisses ?? [])],
    env.inputErrors,
    // An id unmatched in one report may name a run of the other.
    [...(a?.unmatchedOutcomes ?? []), ...(b?.unmatchedOutcomes ?? [])],
  );
}
