// A Harbor job folder read as a corpus: each trial is a run, its
// `agent/trajectory.json` the run's steps, its `result.json` the run's task
// and outcome (the verifier's reward). Harbor's layout (src/harbor/models/
// trial/paths.py and job.py):
//
//   <job>/config.json, result.json, job.log
//   <job>/<task[:32]>__<7 chars>/          a trial
//       config.json, result.json, trial.log, exception.txt
//       agent/trajectory.json              ATIF, for most agents
//       agent/…                            the agent's own logs
//       verifier/reward.txt | reward.json, test-stdout.txt
//       artifacts/
//
// A walk of the job reads each trial's trajectory, with its result before
// it (`prelude`), and the result alone for a trial whose agent wrote no
// trajectory; the job's and the trials' other files are theirs, neither
// read nor reported as skipped. The agent's own logs are not read: a
// trajectory is the run, and a log read beside it would be the same run
// twice, with no outcome.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { onDisk } from '../../core/on-disk.js';
import type { PreRecord } from '../../core/records.js';
import { rawDiagnostic } from '../../core/records.js';
import type { CompanionFiles, InputSession } from '../types.js';
import { readTrialResult, trialRecord } from './trial-result.js';

const TRAJECTORY = 'trajectory.json';
const RESULT = 'result.json';
/** A trial folder's name: the task's first 32 characters, `__`, and 7 random ones (Harbor's ShortUUID). */
const TRIAL_NAME = /__[A-Za-z0-9]{7}$/;

/** What only a trial's folder holds beside its result and config (a trial that failed early has no agent or verifier folder). */
const TRIAL_ONLY = ['agent', 'verifier', 'trial.log', 'exception.txt'];

/** The folder holds a trial: its result and config beside what only a trial has. */
function isTrialFolder(siblings: ReadonlySet<string>): boolean {
  return siblings.has(RESULT) && siblings.has('config.json') && TRIAL_ONLY.some((n) => siblings.has(n));
}

/** The folder is a job: its config and result beside its log or a trial's folder. */
function isJobFolder(siblings: ReadonlySet<string>): boolean {
  if (!siblings.has(RESULT) || !siblings.has('config.json') || TRIAL_ONLY.some((n) => siblings.has(n))) return false;
  if (siblings.has('job.log')) return true;
  for (const n of siblings) if (TRIAL_NAME.test(n)) return true;
  return false;
}

/** The trial result beside a trajectory at `<trial>/agent/trajectory.json`, if the path is one. */
export function trialResultOf(trajectory: string): string | undefined {
  if (basename(trajectory) !== TRAJECTORY || basename(dirname(trajectory)) !== 'agent') return undefined;
  return join(dirname(dirname(trajectory)), RESULT);
}

export const harborTrials: CompanionFiles = {
  owns(name, folder, siblings, dir) {
    if (isTrialFolder(siblings)) return name !== RESULT && name !== 'agent';
    if (isJobFolder(siblings)) return name === RESULT || name === 'config.json' || name === 'job.log';
    // A trial's agent folder: its trajectory is read; the agent's logs and any other trajectories are its.
    if (basename(dir) === 'agent' && existsSync(join(dirname(dir), RESULT)) && existsSync(join(dirname(dir), 'config.json')))
      return folder || name !== TRAJECTORY;
    return false;
  },

  async gather<S extends InputSession>(sessions: readonly S[], cwd: string | undefined): Promise<{ sessions: S[]; warnings: string[] }> {
    // A trial's result given beside its trajectory is read as the trajectory's prelude, not as a run of its own.
    const read = new Set<string>();
    for (const s of sessions) {
      const r = trialResultOf(s.key);
      if (r !== undefined) read.add(resolve(onDisk(r, cwd)));
    }
    if (!read.size) return { sessions: [...sessions], warnings: [] };
    return { sessions: sessions.filter((s) => !(basename(s.key) === RESULT && read.has(resolve(onDisk(s.key, cwd))))), warnings: [] };
  },

  async discover() {
    return null;
  },

  async prelude(file, o): Promise<readonly PreRecord[]> {
    const path = file === '-' ? undefined : trialResultOf(file);
    if (path === undefined || !existsSync(onDisk(path, o.cwd))) return [];
    const t = await readTrialResult(onDisk(path, o.cwd));
    if ('error' in t)
      return [rawDiagnostic('trial_result_unreadable', path, 0, `${t.error.replace(onDisk(path, o.cwd), path)}: the trial's run has no outcome`)];
    return [{ type: 'record', file: path, line: 1, value: trialRecord(t) }];
  },
};
