// Flag parsing for every command: strict (an unknown flag is a usage error,
// never silently ignored), with the checks commands share.
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

export function parseFlags<O extends Options>(argv: readonly string[], options: O): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional.*$/s, ''));
  }
}

export function regexFlag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    new RegExp(value);
  } catch (err) {
    throw new UsageError(`${flag}: not a valid regular expression (${(err as Error).message})`);
  }
  return value;
}

export function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag}: expected a positive integer, got '${value}'`);
  return n;
}
