// `--format NAME`: read every input as one dialect instead of sniffing each
// file. A dialect that reads documents makes every file a document; one
// that reads lines makes them JSONL and forces its normalizer on them.
import { UsageError } from '../core/errors.js';
import type { Dialect } from '../dialects/types.js';
import { DIALECTS, dialectNamed } from '../dialects/registry.js';
import type { FileFormat } from './sniff.js';

export interface FormatChoice {
  /** How the files are read. */
  readonly file: FileFormat;
  /** The dialect forced on every record, when the files are read as lines. */
  readonly normalize: string | undefined;
}

/** The names `--format` takes. */
export function formatNames(dialects: readonly Dialect[] = DIALECTS): string[] {
  return dialects.map((d) => d.name);
}

export function formatChoice(name: string | undefined, dialects: readonly Dialect[] = DIALECTS): FormatChoice | undefined {
  if (name === undefined) return undefined;
  const d = dialectNamed(name, dialects);
  if (!d) throw new UsageError(`--format: unknown '${name}' (choose from ${formatNames(dialects).join(', ')})`);
  return d.reads === 'document' ? { file: 'document', normalize: undefined } : { file: 'jsonl', normalize: d.name };
}
