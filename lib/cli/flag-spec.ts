// A flag's declaration: what parseArgs needs to read it, and what a person
// needs to use it — its value's name, what it does, its default — in one
// place, so that a command's --help and the reference page (docs/cli.md,
// written from these by `npm run docs`) list the same flags, with the same
// defaults, and cannot drift from what the command accepts.
import type { ParseArgsConfig } from 'node:util';

type ParseOption = NonNullable<ParseArgsConfig['options']>[string];

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** How its value is written: `FILE`, `N`, `NAME[=FILE]` (a string flag needs one). */
  readonly metavar?: string;
  /** What it does, for --help: plain text, no Markdown. */
  readonly help: string;
  /** What it is when not given, said by --help and the reference page alike. Not `default`: parseArgs would apply it. */
  readonly defaultText?: string;
  /** The reference page's fuller text, in Markdown (its links relative to docs/); --help's when absent. */
  readonly doc?: string;
}

/** Declarations a function makes keep what parseArgs' types read a value's type from. */
export type StringFlag = FlagSpec & { readonly type: 'string'; readonly multiple?: false };
export type ListFlag = FlagSpec & { readonly type: 'string'; readonly multiple: true };
export type BooleanFlag = FlagSpec & { readonly type: 'boolean'; readonly multiple?: false };

/** A command's flags by long name, in the order its help lists them. */
export type Flags = Readonly<Record<string, FlagSpec>>;

/** What parseArgs is given: the declarations without their words. */
export function parseOptions(flags: Flags): Record<string, ParseOption> {
  const out: Record<string, ParseOption> = {};
  for (const [name, f] of Object.entries(flags)) out[name] = { type: f.type, ...(f.short !== undefined ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) };
  return out;
}

/** `-q, --quiet`, `--reporter NAME[=FILE]`: the flag as a user types it. */
export function flagUsage(name: string, f: FlagSpec): string {
  return `${f.short !== undefined ? `-${f.short}, ` : ''}--${name}${f.metavar !== undefined ? ` ${f.metavar}` : ''}`;
}

/** Its help, and its default when it has one. */
export function helpWords(f: FlagSpec): string {
  return f.defaultText === undefined ? f.help : `${f.help} (default: ${f.defaultText})`;
}

/** Where a help line's text starts, and how wide a terminal line is kept. */
const TEXT_COLUMN = 26;
const WIDTH = 80;

/** The options block of a command's --help: one flag a row, its text wrapped at the text column. */
export function helpRows(flags: Flags): string {
  const rows: string[] = [];
  for (const [name, f] of Object.entries(flags)) {
    const left = `  ${flagUsage(name, f)}`;
    const words = helpWords(f).split(/\s+/);
    // A long flag pushes its text along the first line; the rest keep to the column.
    let line = left.length + 2 <= TEXT_COLUMN ? left.padEnd(TEXT_COLUMN) : `${left}  `;
    let empty = true;
    for (const w of words) {
      if (!empty && line.length + 1 + w.length > WIDTH) {
        rows.push(line);
        line = ' '.repeat(TEXT_COLUMN);
        empty = true;
      }
      line += empty ? w : ` ${w}`;
      empty = false;
    }
    rows.push(line);
  }
  return rows.join('\n');
}
