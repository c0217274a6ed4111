// What a Harbor trial's result says of its run: delivered or not, or why it
// ended outside the agent's control. Harbor's verifier writes a reward (a
// float from reward.txt, or the keys of reward.json); the trial's
// `exception_info` names the first error, and its type tells whose failure
// it was (Harbor's src/harbor/trial/trial.py): after the agent's own
// timeout or non-zero exit the verifier still runs and a reward exists;
// a failed environment, agent setup or verifier leaves no reward that
// judges the agent.
import type { TrialResult } from './trial-result.js';
import { DEFAULT_REWARD_THRESHOLD } from '../../core/reward.js';

/** Harbor's errors that are the agent's own: the verifier ran after them, and its reward judges the run. */
const AGENT_ERRORS: ReadonlySet<string> = new Set(['AgentTimeoutError', 'NonZeroAgentExitCodeError']);
/** The verifier's own failures: the run was not judged. */
const VERIFIER_ERRORS: ReadonlySet<string> = new Set(['VerifierTimeoutError', 'RewardFileNotFoundError', 'RewardFileEmptyError', 'VerifierOutputParseError']);

export interface TrialOutcome {
  readonly run: string;
  readonly task: string;
  /** The verifier's reward: `reward`, or the one key reward.json has. */
  readonly reward?: number;
  /** At the default threshold; grading decides again by its configured one. False when the trial failed outside the agent. */
  readonly delivered: boolean | null;
  readonly infra?: string;
  /** Why a reward could not be read from several (reward.json with several keys, none named `reward`). */
  readonly note?: string;
}

export function trialOutcome(t: TrialResult): TrialOutcome {
  const run = t.trial_name ?? t.id ?? 'trial';
  const task = t.task_name ?? run;
  const keys = t.rewards ? Object.keys(t.rewards) : [];
  const key = keys.includes('reward') ? 'reward' : keys.length === 1 ? keys[0] : undefined;
  const reward = key === undefined ? undefined : t.rewards![key];
  const note = key === undefined && keys.length > 1 ? `its rewards are ${keys.join(', ')}, and none is named reward: no outcome read` : undefined;
  const type = t.exception_type;
  const reason = type === undefined ? undefined : t.exception_message ? `${type}: ${firstLine(t.exception_message)}` : type;
  if (type !== undefined && !AGENT_ERRORS.has(type)) {
    const infra = VERIFIER_ERRORS.has(type) ? `the verifier failed: ${reason}` : `the trial failed outside the agent: ${reason}`;
    // Not delivered, as a Claude Code run that died without a result: `compare` leaves such runs out unless told.
    return { run, task, ...(reward !== undefined ? { reward } : {}), delivered: false, infra };
  }
  if (reward !== undefined) return { run, task, reward, delivered: reward >= DEFAULT_REWARD_THRESHOLD };
  // The agent's own failure and no reward: not delivered. No exception and no reward: the verifier did not run.
  return { run, task, delivered: type !== undefined ? false : null, ...(note ? { note } : {}) };
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return (i < 0 ? s : s.slice(0, i)).slice(0, 200);
}
