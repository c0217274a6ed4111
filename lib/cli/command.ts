import type { ExitCode } from '../core/exit-code.js';
import type { CliIO } from './io.js';
import type { Flags } from '../core/flag-spec.js';

/** A sub-command: parses its own flags, runs, and returns the exit code. */
export interface Command {
  readonly name: string;
  /**
   * The flags each (sub-)command takes, as it declares them: to tell a user
   * whose flag they typed, and to write the reference page's flag tables.
   */
  readonly flags: ReadonlyArray<{ readonly command: string; readonly options: Flags }>;
  run(argv: readonly string[], io: CliIO): Promise<ExitCode>;
}
