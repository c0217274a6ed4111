// `--reporter name[=file]`: which sinks a run writes, and where.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Transform } from 'node:stream';
import { UsageError, InputError } from '../errors.js';
import type { SinkOptions } from '../../sinks/report-sink.js';
import { text } from '../../sinks/text.js';
import { json } from '../../sinks/json.js';
import { ndjson } from '../../sinks/ndjson.js';
import { junit } from '../../sinks/junit.js';
import { markdown } from '../../sinks/markdown.js';
import type { SinkTarget } from './run.js';
import type { CliIO } from './io.js';

export const REPORTERS: Record<string, (opts: SinkOptions) => Transform> = { text, json, ndjson, junit, markdown };

export interface ReporterSpec {
  readonly name: string;
  /** Output file, or undefined for stdout. */
  readonly file: string | undefined;
}

/** Reads `--reporter` values and `--json`; text alone when neither is given. */
export function reporterSpecs(values: readonly string[] | undefined, jsonFlag: boolean | undefined, names: readonly string[] = Object.keys(REPORTERS)): ReporterSpec[] {
  const specs: ReporterSpec[] = [];
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    const name = eq === -1 ? v : v.slice(0, eq);
    const file = eq === -1 ? undefined : v.slice(eq + 1);
    if (!names.includes(name)) throw new UsageError(`unknown reporter '${name}' (choose from ${names.join(', ')})`);
    if (file === '') throw new UsageError(`--reporter ${name}=: missing file name`);
    specs.push({ name, file });
  }
  if (jsonFlag) specs.push({ name: 'json', file: undefined });
  if (specs.length === 0) specs.push({ name: 'text', file: undefined });
  const toStdout = specs.filter((s) => s.file === undefined);
  if (toStdout.length > 1) throw new UsageError(`only one reporter can write to stdout (${toStdout.map((s) => s.name).join(', ')}): give the others =FILE`);
  return specs;
}

async function openFile(path: string, flags: 'w' | 'a'): Promise<NodeJS.WritableStream> {
  const dest = createWriteStream(path, { flags });
  try {
    await once(dest, 'open');
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return dest;
}

/**
 * Opens every reporter's destination before anything is read. A markdown
 * report is also appended to $GITHUB_STEP_SUMMARY when that is set, the file
 * GitHub Actions shows on the run's page.
 */
export async function openReporters(specs: readonly ReporterSpec[], opts: SinkOptions, io: CliIO, inputs: readonly string[] = [], live = false): Promise<SinkTarget[]> {
  const targets: SinkTarget[] = [];
  const reading = new Set(inputs.filter((i) => i !== '-').map((i) => resolve(io.cwd, i)));
  for (const s of specs) if (s.file !== undefined && reading.has(resolve(io.cwd, s.file))) throw new UsageError(`--reporter ${s.name}=${s.file} would overwrite an input`);
  for (const s of specs) {
    // A followed run's text report prints each finding as it is decided.
    const transform = s.name === 'text' ? text({ ...opts, live }) : REPORTERS[s.name]!(opts);
    if (s.file === undefined) targets.push({ transform, dest: io.stdout, end: false });
    else targets.push({ transform, dest: await openFile(resolve(io.cwd, s.file), 'w'), end: true });
  }
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary && specs.some((s) => s.name === 'markdown')) targets.push({ transform: markdown(opts), dest: await openFile(summary, 'a'), end: true });
  return targets;
}
