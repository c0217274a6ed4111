// One function decides the exit code from what a run found, so a report and
// its exit code can never disagree. Precedence: internal error > gate failed
// > usage or input error > ok. A failed gate outranks an input error because
// both are failures and the gate's is the more specific: a damaged input
// that still let a forbidden call through is a failed gate (3), and an input
// error with no gate failure is still never 0.

export const EXIT = { ok: 0, internal: 1, input: 2, gate: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface RunOutcome {
  /** A bug: something threw that no user input should cause. */
  internalError?: boolean;
  /** Bad flags, config, unreadable inputs, or nothing to grade. */
  inputErrors?: number;
  /** An analysis gate failed (grading, coverage, diff). */
  gateFailed?: boolean;
}

export function exitCodeFor(o: RunOutcome): ExitCode {
  if (o.internalError) return EXIT.internal;
  if (o.gateFailed) return EXIT.gate;
  if ((o.inputErrors ?? 0) > 0) return EXIT.input;
  return EXIT.ok;
}
