// What a command may touch, injectable so the CLI runs inside tests too.
export interface CliIO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT or SIGTERM. */
  readonly signal?: AbortSignal;
}

import { printable } from '../core/escape.js';

export const PROG = 'agent-eval-stream';

/** One line on stderr; what it quotes (paths, ids, names) cannot break it or drive the terminal. */
export function say(io: CliIO, message: string): void {
  io.stderr.write(`${PROG}: ${printable(message)}\n`);
}
