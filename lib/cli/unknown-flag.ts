// An unknown flag is a usage error that helps: the closest flag the command
// does know ("did you mean --reporter?"), or the commands the flag belongs
// to when it is another command's (`--probe` is for sufficiency). A
// mistyped command (`gradee`) gets the same near miss, from the same code.
import { UsageError } from '../core/errors.js';
import { outputFlagHint } from './output-flag-hint.js';
import { editDistance } from '../core/nearest-name.js';

export class UnknownFlagError extends UsageError {
  /** As written: `--reportr`, `-x`. */
  readonly flag: string;
  /** The long flags the command knows, without dashes. */
  readonly known: readonly string[];
  /** The (sub-)command it was given to, when more precise than the command (`graph backlog`). */
  command: string | undefined;
  constructor(flag: string, known: readonly string[], message?: string) {
    super(message ?? `unknown option '${flag}'`);
    this.flag = flag;
    this.known = known;
    this.command = undefined;
  }
  // UserError's cross-copy instanceof matches every user error; this one is narrower.
  static override [Symbol.hasInstance](x: unknown): boolean {
    return UsageError[Symbol.hasInstance](x) && typeof (x as UnknownFlagError).flag === 'string' && Array.isArray((x as UnknownFlagError).known);
  }
}

/** The known name (a flag, a command) closest to `name`, if one is close enough to be a typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 0.5 : editDistance(name, k);
    if (d < bestD || (d === bestD && best !== undefined && k < best)) {
      best = k;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 4)) ? best : undefined;
}

/**
 * The whole message: the command's own near miss first; else the commands
 * whose flag it is (`owners`: command names, the default one marked).
 */
export function unknownFlagMessage(err: UnknownFlagError, command: string, owners: readonly string[]): string {
  const name = err.flag.replace(/^--?/, '').replace(/=.*$/, '');
  const flag = `--${name}`;
  const output = outputFlagHint(err.flag, err.known);
  if (owners.length) return `${flag} is an option of ${listWords(owners)}, not of ${command}${output ? ` (${output})` : ''}`;
  if (output) return `unknown option '${err.flag}' (${output})`;
  const near = err.flag.startsWith('--') ? closestName(name, err.known) : undefined;
  return near ? `unknown option '${err.flag}' (did you mean --${near}?)` : `unknown option '${err.flag}'`;
}

/**
 * A first word that is no command and no file, but a typo of a command
 * (`gradee`, `sessoin`): said as such, not read as an input that is missing.
 */
export function unknownCommandMessage(word: string, commands: readonly string[]): string | undefined {
  const near = closestName(word, commands);
  return near === undefined ? undefined : `unknown command '${word}': did you mean '${near}'?`;
}

function listWords(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}
