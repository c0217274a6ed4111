// What one run of sufficiency is told — which tools are probes, how a
// response names files, where persisted responses are — and the probe
// specs those options make.
import { DEFAULT_MARKER } from './returned.js';
import { builtInSpecs, codegraphSpec, configuredSpec, DEFAULT_FAMILY, DEFAULT_PROBE } from './probe-specs.js';
import type { ProbeConfig, ProbeSpec } from './profiles.js';
import type { OptionSources } from '../registration.js';
import type { SufficiencyFlags } from './flags.js';
import type { SufficiencyConfig } from './config.js';

export interface SufficiencyOptions {
  /** Regex source: a call whose tool name matches is a (CodeGraph-profile) probe, the only one. */
  probe?: string;
  /** Regex source: a next call of a matching tool is `explore again` (with `probe`, or for the built-in CodeGraph probe). */
  family?: string;
  /** Regex source whose first group is a returned file's path (multiline). */
  marker?: string;
  /** The folder relative input paths are read from: a persisted response is looked for beside its transcript (default: the process's). */
  cwd?: string;
  /** The probe tools and their profiles (the config's `probes`); without these or `probe`, every built-in profile. */
  probes?: readonly ProbeConfig[];
}

/** The probe tools a run judges, and whether the report keeps the one probe's original shape. */
export function probeSpecs(o: SufficiencyOptions): { specs: ProbeSpec[]; single: boolean } {
  const marker = o.marker ?? DEFAULT_MARKER;
  if (o.probes?.length) return { specs: o.probes.map((c) => configuredSpec(c, marker)), single: false };
  if (o.probe !== undefined) return { specs: [codegraphSpec(o.probe, o.family ?? DEFAULT_FAMILY, marker)], single: true };
  const specs = builtInSpecs(marker);
  if (o.family !== undefined) specs[0] = codegraphSpec(DEFAULT_PROBE, o.family, marker);
  return { specs, single: false };
}

/** A run's options: `--probe`, else the config's `probe` or `probes`, else every built-in profile; `--probe-family` over the config's `family`. */
export function sufficiencyOptionsFrom({ config: c, flags: f, cwd }: OptionSources<SufficiencyFlags, SufficiencyConfig>): SufficiencyOptions {
  const probe = f.probe ?? c.sufficiency?.probe;
  const family = f.family ?? c.sufficiency?.family;
  return {
    ...(cwd !== undefined ? { cwd } : {}),
    ...(probe !== undefined ? { probe } : f.probe === undefined && c.sufficiency?.probes ? { probes: c.sufficiency.probes } : {}),
    ...(family ? { family } : {}),
    marker: c.sufficiency?.marker ?? DEFAULT_MARKER,
  };
}
