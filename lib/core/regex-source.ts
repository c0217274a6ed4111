// A regular expression's source, from a config or a flag: checked where it
// is read, so a bad one is a config error with its key path, or a usage
// error naming the flag, before anything is analysed.
import { z } from 'zod';
import { UsageError } from './errors.js';

export const regexSource = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

/** A flag's value that is a regular expression's source (undefined: not given). */
export function regexFlag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    new RegExp(value);
  } catch (err) {
    throw new UsageError(`${flag}: not a valid regular expression (${(err as Error).message})`);
  }
  return value;
}
