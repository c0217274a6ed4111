// What a worker needs to run the same analyses as the main thread: the
// command's choices as plain data (options hold regular expressions and
// closures, which cannot cross a thread), rebuilt the same way on each side.
import { loadConfig } from '../config/config.js';
import type { Configured } from '../analyses/types.js';
import type { FailOn } from '../analyses/grade/options.js';
import { configureAnalyses } from './analysis-choice.js';
import type { ChosenAnalysis } from './analysis-choice.js';

export interface AnalysisRecipe {
  readonly chosen: readonly ChosenAnalysis[];
  /** `--config`, as given, and the folder it and the inputs are relative to. */
  readonly config: string | undefined;
  readonly cwd: string;
  readonly probe?: string;
  readonly family?: string;
  readonly task?: string;
  readonly taskPattern?: string;
  readonly outcomes?: ReadonlyArray<readonly [string, boolean]>;
  readonly failOn?: readonly FailOn[];
  readonly home?: string;
  readonly date?: string;
}

export async function analysesOfRecipe(r: AnalysisRecipe): Promise<Configured[]> {
  const loaded = await loadConfig(r.config, r.cwd);
  return configureAnalyses(r.chosen, loaded, { probe: r.probe, family: r.family, task: r.task, taskPattern: r.taskPattern, outcomes: r.outcomes ? new Map(r.outcomes) : undefined, failOn: r.failOn, home: r.home, cwd: r.cwd, date: r.date });
}
