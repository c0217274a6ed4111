// What one run of allocation is told: the probe whose responses it weighs,
// and how a response marks the file each section is of.

export interface AllocationOptions {
  /** Regex source: sufficiency's probe tool. */
  readonly probe: string;
  /** Regex source whose first group is a section's path: sufficiency's marker. */
  readonly marker: string;
  /** The folder relative input paths are read from: a persisted response is looked for beside its transcript (default: the process's). */
  readonly cwd?: string;
}
