// Commands whose argument is itself a command line: `bash -c '…'`,
// `sh -c '…'`, `zsh -c '…'` and `eval …`. What they run is read with the same
// shell reader, so `bash -c "rm -rf build"` is an `rm -rf`, not an unknown
// `bash`. The argument is already unquoted once by the reader, as the outer
// shell would have; reading it again is the inner shell's turn.
//
// Nesting is bounded: each level is parsed afresh, so an unbounded chain
// (`eval eval eval … cmd`, linear in size) would cost depth × length and,
// recursing, could overflow the stack. Past MAX_SCRIPT_DEPTH levels the
// script is not read; each consumer says what an unread script counts as.
import { posix } from 'node:path';
import type { SimpleCommand } from './parse.js';
import { allCommands, parseShell } from './parse.js';
import { unwrapCommand } from './wrappers.js';

export const MAX_SCRIPT_DEPTH = 16;

const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh']);
// Options that take the next word as their value (`bash -o pipefail -c …`).
const VALUE_OPTS: ReadonlySet<string> = new Set(['--rcfile', '--init-file']);

/**
 * The command line an argv runs as a script, if it is one: the command
 * string of `bash|sh|zsh [options] -c STRING [name args…]`, or the words of
 * `eval WORDS…` joined by spaces (what eval does). `argv` is taken as is:
 * look through wrappers (`sudo`, `env` …) first.
 */
export function innerScript(argv: readonly string[]): string | undefined {
  const name = argv[0];
  if (name === undefined) return undefined;
  if (name === 'eval') return argv.length > 1 ? argv.slice(1).join(' ') : undefined;
  if (!SHELLS.has(posix.basename(name))) return undefined;
  let command = false;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--' || a === '-') return command ? argv[k + 1] : undefined;
    if (VALUE_OPTS.has(a)) {
      k++;
      continue;
    }
    if (a.startsWith('--')) continue;
    if (a.length > 1 && (a[0] === '-' || a[0] === '+')) {
      // A cluster (`-lc`, `-ec`, `-xeo pipefail`): `c` asks for a command
      // string; a trailing `o`/`O` takes the next word as its value.
      if (a[0] === '-' && a.includes('c', 1)) command = true;
      const last = a[a.length - 1];
      if (last === 'o' || last === 'O') k++;
      continue;
    }
    // The first operand: the command string with -c, else a script file.
    return command ? a : undefined;
  }
  return undefined;
}

/**
 * Every simple command a line runs: those of its chain, of each `$(…)`, and
 * of each script it runs (`bash -c`, `eval`), down to MAX_SCRIPT_DEPTH.
 */
export function* commandsRun(commands: readonly SimpleCommand[], depth = 0): Generator<SimpleCommand> {
  for (const c of allCommands(commands)) {
    yield c;
    if (depth >= MAX_SCRIPT_DEPTH) continue;
    const script = innerScript(unwrapCommand(c.argv));
    if (script !== undefined) yield* commandsRun(parseShell(script), depth + 1);
  }
}
