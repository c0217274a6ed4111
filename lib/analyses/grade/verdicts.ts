import type { ThreadKind } from '../../core/events.js';
// From flags to verdicts, tasks, pass^k and the gate. All of it is derived
// from the list of run results, so reports merge by concatenating runs.
import type { Flag, RunUsage } from './run-grader.js';
import type { FailOn } from './options.js';
import { maxOf } from '../../core/arrays.js';

export const VERDICTS = ['clean-pass', 'pass-with-warnings', 'corrupt-success', 'fail'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const STATUSES = ['repeatable', 'flaky', 'failing', 'unverified'] as const;
export type TaskStatus = (typeof STATUSES)[number];

export interface RunResult {
  run: string;
  task: string;
  session: string;
  source: string;
  /** null: the source has no outcome and none was supplied (--outcomes). */
  delivered: boolean | null;
  /** The verifier's reward, when the source has one (a Harbor trial): delivered when it reaches `reward_threshold`. */
  reward?: number;
  verdict: Verdict;
  steps: number;
  /** The longest streak of consecutive failed calls of one tool in one thread (what retry_storm thresholds); absent when the source records no outcomes. */
  failStreak?: number;
  stepsByThread: Record<string, number>;
  /** Threads other than main and what they were (internal ones are listed, never graded); absent when none. */
  threads?: Record<string, ThreadKind>;
  flags: Flag[];
  /** Rules this source cannot support, reported rather than passed or fired. */
  notEvaluated: string[];
  /** Its requests' tokens and cost (absent when the source records no usage). */
  usage?: RunUsage;
  /** The run's own span (OpenTelemetry input): what a verdict exported as OpenTelemetry is attached to. */
  span?: string;
  /** Why the run ended, as its last result says (Claude Code 2.1.x `terminal_reason`). */
  terminalReason?: string;
  /**
   * Why the run failed for reasons outside the agent (an API error, a session
   * limit, no result at all), when it did: `compare` counts these apart from
   * the agent's failures.
   */
  infra?: string;
  /** MCP tools whose first calls were refused as "No such tool available": the server had not started yet. */
  mcpColdStart?: string[];
  /** What its results list as errors. */
  errors?: string[];
  /** Calls its results say permission was refused for. */
  permissionDenials?: number;
  /** Subagents its Agent/Task results name whose transcripts the input does not hold: the run is graded on the rest, and is incomplete. */
  missingSubagents?: number;
}

export interface TaskResult {
  task: string;
  k: number;
  /** Runs whose outcome is known (delivered or not). */
  known: number;
  delivered: number;
  /** null: no run is known to have failed, but some outcome is unknown. */
  passK: boolean | null;
  status: TaskStatus;
}

/** The reference's order: not delivered, no flags, a high flag, otherwise warnings. Unknown counts as delivered. */
export function verdictOf(delivered: boolean | null, flags: readonly Flag[]): Verdict {
  if (delivered === false) return 'fail';
  if (flags.length === 0) return 'clean-pass';
  if (flags.some((f) => f.severity === 'high')) return 'corrupt-success';
  return 'pass-with-warnings';
}

export function tasksOf(runs: readonly RunResult[]): TaskResult[] {
  const by = new Map<string, RunResult[]>();
  for (const r of runs) {
    const list = by.get(r.task);
    if (list) list.push(r);
    else by.set(r.task, [r]);
  }
  return [...by.entries()].map(([task, rs]) => taskResult(task, rs));
}

/**
 * One known failure decides pass^k, whatever the other runs' outcomes: the
 * task cannot pass on every rerun. It is flaky when another run is known to
 * have delivered, else failing. Only a task with no known failure and some
 * unknown outcome is unverified (pass^k unknown: null).
 */
export function taskResult(task: string, rs: ReadonlyArray<Pick<RunResult, 'delivered'>>): TaskResult {
  const k = rs.length;
  let delivered = 0;
  let failed = 0;
  for (const r of rs) {
    if (r.delivered === true) delivered++;
    else if (r.delivered === false) failed++;
  }
  const known = delivered + failed;
  if (failed > 0) return { task, k, known, delivered, passK: false, status: delivered > 0 ? 'flaky' : 'failing' };
  if (known < k) return { task, k, known, delivered, passK: null, status: 'unverified' };
  return { task, k, known, delivered, passK: true, status: 'repeatable' };
}

/** "2/3 runs delivered", or "1/2 known, 0 delivered" when some outcomes are unknown. */
export function deliveredText(t: Pick<TaskResult, 'k' | 'known' | 'delivered'>): string {
  return t.known === t.k ? `${t.delivered}/${t.k} runs delivered` : `${t.known}/${t.k} known, ${t.delivered} delivered`;
}

/** pass^k as every reporter prints it. */
export function passKText(passK: boolean | null): string {
  return passK === null ? '?' : passK ? 'pass' : 'FAIL';
}

/** C(n, k) as a float; exact for the small n of reruns. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * The τ-bench estimators over tasks: pass^j = mean of C(c, j)/C(k, j) (every
 * one of j draws succeeds), pass@j = mean of 1 − C(k−c, j)/C(k, j) (at least
 * one does), for j = 1…max k, each j over the tasks with at least j runs.
 * `success` decides which runs count (delivered, or delivered and not corrupt).
 */
export function estimators(
  runs: readonly RunResult[],
  success: (r: RunResult) => boolean,
): { passHat: Record<string, number>; passAt: Record<string, number> } {
  const per = new Map<string, { k: number; c: number; unknown: boolean }>();
  for (const r of runs) {
    const t = per.get(r.task) ?? { k: 0, c: 0, unknown: false };
    t.k++;
    if (r.delivered === null) t.unknown = true;
    else if (success(r)) t.c++;
    per.set(r.task, t);
  }
  // Tasks whose outcomes are unknown cannot be estimated.
  const known = [...per.values()].filter((t) => !t.unknown);
  const maxK = maxOf(
    known.map((t) => t.k),
    0,
  );
  // Per j: the sums over eligible tasks and how many there are. The ratios
  // grow one factor per j — C(c, j)/C(k, j) = Π (c−i)/(k−i) over i < j — so
  // the work is the number of runs, not its square (one task of 150,000
  // runs would otherwise take minutes).
  const hatSum = new Float64Array(maxK + 1);
  const atSum = new Float64Array(maxK + 1);
  const eligible = new Uint32Array(maxK + 1);
  for (const t of known) {
    let allSucceed = 1;
    let allFail = 1;
    for (let j = 1; j <= t.k; j++) {
      allSucceed = j > t.c ? 0 : (allSucceed * (t.c - j + 1)) / (t.k - j + 1);
      allFail = j > t.k - t.c ? 0 : (allFail * (t.k - t.c - j + 1)) / (t.k - j + 1);
      hatSum[j]! += allSucceed;
      atSum[j]! += 1 - allFail;
      eligible[j]!++;
    }
  }
  const passHat: Record<string, number> = {};
  const passAt: Record<string, number> = {};
  for (let j = 1; j <= maxK; j++) {
    if (!eligible[j]) continue;
    passHat[String(j)] = round(hatSum[j]! / eligible[j]!);
    passAt[String(j)] = round(atSum[j]! / eligible[j]!);
  }
  return { passHat, passAt };
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

export interface GateResult {
  failed: boolean;
  reasons: string[];
}

export function gateOf(runs: readonly RunResult[], tasks: readonly TaskResult[], failOn: readonly FailOn[]): GateResult {
  const reasons: string[] = [];
  if (failOn.includes('corrupt-success'))
    for (const r of runs)
      if (r.verdict === 'corrupt-success')
        reasons.push(
          `run ${r.run} (${r.task}) is corrupt-success: ${r.flags
            .filter((f) => f.severity === 'high')
            .map((f) => f.detail)
            .join('; ')}`,
        );
  if (failOn.includes('flaky')) for (const t of tasks) if (t.status === 'flaky') reasons.push(`task ${t.task} is flaky: ${deliveredText(t)}`);
  if (failOn.includes('failing')) for (const t of tasks) if (t.status === 'failing') reasons.push(`task ${t.task} is failing: ${deliveredText(t)}`);
  if (failOn.includes('warnings'))
    for (const r of runs)
      if (r.verdict === 'pass-with-warnings') reasons.push(`run ${r.run} (${r.task}) has warnings: ${r.flags.map((f) => f.rule).join(', ')}`);
  return { failed: reasons.length > 0, reasons };
}
