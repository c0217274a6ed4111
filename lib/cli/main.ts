// The CLI: a registry of sub-commands; with none named, the default runs.
// User mistakes end in one line on stderr and exit 2; anything else is a bug
// and exits 1 with its stack.
import { UsageError, UserError } from '../core/errors.js';
import { UnknownFlagError, unknownFlagMessage } from './unknown-flag.js';
import { EXIT, exitCodeFor } from '../core/exit-code.js';
import type { ExitCode } from '../core/exit-code.js';
import { packageVersion } from '../core/version.js';
import type { Command } from './command.js';
import type { CliIO } from './io.js';
import { PROG, say } from './io.js';
import { analyzeCommand, gradeCommand, sessionCommand, sufficiencyCommand } from './commands/analysis.js';
import { graphCommand } from './commands/graph.js';

export const COMMANDS: readonly Command[] = [analyzeCommand, sufficiencyCommand, gradeCommand, sessionCommand, graphCommand];
const DEFAULT_COMMAND = analyzeCommand;

function help(): string {
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(14)}${c.summary}`).join('\n');
  return `Usage: ${PROG} [COMMAND] [options] [INPUT...]

Judges the path an AI agent took, from its transcript, as a stream.

Commands:
${rows}

Run '${PROG} COMMAND --help' for a command's options.
  --version     print the version
`;
}

/** The other commands that take `flag`; the default command says it is the default. */
function flagOwners(flag: string, current: string): string[] {
  const name = flag.replace(/^--?/, '').replace(/=.*$/, '');
  const owners: string[] = [];
  for (const c of COMMANDS) {
    for (const f of c.flags) {
      if (f.command === current || !f.flags.includes(name) || owners.includes(f.command)) continue;
      owners.push(c === DEFAULT_COMMAND ? `${f.command} (the default command)` : f.command);
    }
  }
  return flag.startsWith('--') ? owners : [];
}

export async function main(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  try {
    const first = argv[0];
    if (argv.includes('--version') || first === '-v') {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      io.stdout.write(help());
      return EXIT.ok;
    }
    const named = COMMANDS.find((c) => c.name === first);
    const command = named ?? DEFAULT_COMMAND;
    try {
      return await command.run(named ? argv.slice(1) : argv, io);
    } catch (err) {
      if (err instanceof UnknownFlagError) {
        const where = err.command ?? command.name;
        throw new UsageError(unknownFlagMessage(err, where, flagOwners(err.flag, where)));
      }
      throw err;
    }
  } catch (err) {
    if (err instanceof UserError) {
      for (const line of err.message.split('\n')) say(io, line);
      return exitCodeFor({ inputErrors: 1 });
    }
    for (const line of `internal error: ${(err as Error).stack ?? String(err)}`.split('\n')) say(io, line);
    return exitCodeFor({ internalError: true });
  }
}
