import type { ExitCode } from '../core/exit-code.js';
import type { CliIO } from './io.js';

/** A sub-command: parses its own flags, runs, and returns the exit code. */
export interface Command {
  readonly name: string;
  /** The long flags each (sub-)command takes, to tell a user whose flag they typed. */
  readonly flags: ReadonlyArray<{ readonly command: string; readonly flags: readonly string[] }>;
  run(argv: readonly string[], io: CliIO): Promise<ExitCode>;
}
