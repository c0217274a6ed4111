// One function decides the exit code from what a run found, so a report and
// its exit code can never disagree. Precedence: internal error > usage or
// input error > gate failed > ok.

export const EXIT = { ok: 0, internal: 1, input: 2, gate: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface RunOutcome {
  /** A bug: something threw that no user input should cause. */
  internalError?: boolean;
  /** Bad flags, config or unreadable inputs. */
  inputErrors?: number;
  /** An analysis gate failed (grading, coverage, diff). */
  gateFailed?: boolean;
}

export function exitCodeFor(o: RunOutcome): ExitCode {
  if (o.internalError) return EXIT.internal;
  if ((o.inputErrors ?? 0) > 0) return EXIT.input;
  if (o.gateFailed) return EXIT.gate;
  return EXIT.ok;
}
