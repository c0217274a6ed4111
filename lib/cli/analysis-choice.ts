// Which analyses a command runs, and each one's options from the config and
// the flags. The CLI is where analyses are named: a command runs a fixed
// set, the default one takes `--analyses`, and a flag of an analysis left
// out is a usage error rather than silently ignored.
import { UsageError } from '../core/errors.js';
import type { Configured } from '../analyses/types.js';
import { builtInAnalyses } from '../analyses/index.js';
import { DEFAULT_PROBE } from '../analyses/sufficiency/probe-specs.js';
import { DEFAULT_MARKER } from '../analyses/sufficiency/returned.js';
import { gradeOptions } from '../analyses/grade/options.js';
import type { FailOn } from '../analyses/grade/options.js';
import type { LoadedConfig } from '../config/config.js';
import { priceTable } from '../core/prices.js';
import { DEFAULT_PRICES } from '../core/model-prices.js';
import { calibrationDate, calibrationSettings } from '../analyses/calibration/options.js';
import { packageVersion } from '../core/version.js';

/** The analyses a command can be asked for (token usage always runs). */
export const CHOOSABLE = ['occupancy', 'sufficiency', 'allocation', 'grade', 'calibration'] as const;
export type ChosenAnalysis = (typeof CHOOSABLE)[number];

/** Each choosable analysis' own flags, to refuse them when none that takes them runs. */
const OWN_FLAGS: Record<ChosenAnalysis, readonly string[]> = {
  occupancy: [],
  sufficiency: ['probe', 'probe-family'],
  allocation: ['probe'],
  grade: ['outcomes', 'task', 'task-pattern', 'fail-on'],
  calibration: [],
};

/** `--analyses LIST` among what the command runs (and `extra`, which it runs only when named); its default is `available`. */
export function chosenAnalyses(available: readonly ChosenAnalysis[], flag: string | undefined, values: Record<string, unknown>, extra: readonly ChosenAnalysis[] = []): ChosenAnalysis[] {
  if (flag === undefined) return [...available];
  const list = flag.split(',').map((s) => s.trim()).filter(Boolean);
  const all = CHOOSABLE.filter((a) => available.includes(a) || extra.includes(a));
  if (!list.length) throw new UsageError(`--analyses: name at least one of ${all.join(', ')}`);
  for (const a of list) if (!(all as readonly string[]).includes(a)) throw new UsageError(`--analyses: unknown '${a}' (choose from ${all.join(', ')})`);
  const chosen = all.filter((a) => list.includes(a));
  if (chosen.includes('calibration') && !chosen.includes('grade')) throw new UsageError('--analyses: calibration reads grading\'s results: keep grade in the list');
  for (const a of available) {
    if (chosen.includes(a)) continue;
    const given = OWN_FLAGS[a].find((f) => values[f] !== undefined && !chosen.some((c) => OWN_FLAGS[c].includes(f)));
    if (given !== undefined) throw new UsageError(`--${given} is for ${a}, which --analyses leaves out`);
  }
  return chosen;
}

export interface AnalysisFlags {
  probe?: string;
  family?: string;
  task?: string;
  taskPattern?: string;
  outcomes?: ReadonlyMap<string, boolean>;
  failOn?: readonly FailOn[];
  home?: string;
  /** The folder the inputs are relative to (a persisted response is looked for beside its transcript). */
  cwd?: string;
  /** The day a calibration is made (YYYY-MM-DD, UTC): today, unless the environment fixes it. */
  date?: string;
}

/** The chosen analyses with their options: flags over the config over the defaults. */
export function configureAnalyses(chosen: readonly ChosenAnalysis[], loaded: LoadedConfig, f: AnalysisFlags): Configured[] {
  const c = loaded.config;
  // Sufficiency: `--probe`, else the config's `probe` or `probes`, else every built-in profile.
  const probe = f.probe ?? c.sufficiency?.probe;
  const marker = c.sufficiency?.marker ?? DEFAULT_MARKER;
  const grade = chosen.includes('grade') ? gradeOptions(loaded, { task: f.task, taskPattern: f.taskPattern, outcomes: f.outcomes, failOn: f.failOn, home: f.home }) : undefined;
  return builtInAnalyses({
    sufficiency: chosen.includes('sufficiency') ? { ...(f.cwd !== undefined ? { cwd: f.cwd } : {}), ...(probe !== undefined ? { probe } : f.probe === undefined && c.sufficiency?.probes ? { probes: c.sufficiency.probes } : {}), ...(f.family ?? c.sufficiency?.family ? { family: f.family ?? c.sufficiency?.family } : {}), marker } : false,
    // Allocation reads CodeGraph's explore unless `--probe` names another.
    ...(chosen.includes('allocation') ? { allocation: { probe: probe ?? DEFAULT_PROBE, marker, ...(f.cwd !== undefined ? { cwd: f.cwd } : {}) } } : {}),
    grade,
    ...(grade && chosen.includes('calibration') ? { calibration: calibrationSettings(grade, { date: f.date ?? calibrationDate({}), version: packageVersion() }) } : {}),
    usage: { prices: priceTable(DEFAULT_PRICES, c.usage?.prices, loaded.path ?? undefined) },
    ...(chosen.includes('occupancy') ? { occupancy: c.occupancy?.window === undefined ? {} : { window: c.occupancy.window } } : {}),
  });
}
