// What one run of allocation is told: the probe whose responses it weighs,
// and how a response marks the file each section is of — sufficiency's
// probe and marker, from the same flag and config keys.
import type { OptionSources } from '../registration.js';
import type { SufficiencyConfig } from '../sufficiency/config.js';
import { DEFAULT_PROBE } from '../sufficiency/probe-specs.js';
import { DEFAULT_MARKER } from '../sufficiency/returned.js';
import type { AllocationFlags } from './flags.js';

export interface AllocationOptions {
  /** Regex source: sufficiency's probe tool. */
  readonly probe: string;
  /** Regex source whose first group is a section's path: sufficiency's marker. */
  readonly marker: string;
  /** The folder relative input paths are read from: a persisted response is looked for beside its transcript (default: the process's). */
  readonly cwd?: string;
}

/** A run's options: `--probe`, else the config's `sufficiency.probe`, else CodeGraph's explore. */
export function allocationOptionsFrom({ config: c, flags: f, cwd }: OptionSources<AllocationFlags, SufficiencyConfig>): AllocationOptions {
  return { probe: f.probe ?? c.sufficiency?.probe ?? DEFAULT_PROBE, marker: c.sufficiency?.marker ?? DEFAULT_MARKER, ...(cwd !== undefined ? { cwd } : {}) };
}
