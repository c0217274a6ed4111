// One arm of `compare` as a report: its saved JSON reports merged, and its
// transcripts read through the same stages as the default command — so a
// comparison of saved reports gives the answer the comparison of their
// transcripts does.
import { open, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Configured } from '../analyses/types.js';
import { discoverSessions, skippedWarning } from '../io/inputs.js';
import { readSessions } from '../io/source.js';
import { ReportBuilder, reportSchema, SCHEMA_VERSION } from '../report/index.js';
import { mergeReports } from '../report/merge.js';
import type { Report } from '../report/index.js';
import { fusedStages } from '../../transforms/pipeline.js';
import { runPipeline } from '../../transforms/run-pipeline.js';
import type { InputErrorItem } from '../core/input-error.js';
import { InputError } from '../core/errors.js';
import { printable } from '../core/escape.js';
import { keyPath } from '../core/key-path.js';
import type { StreamItem } from '../core/items.js';

export interface ArmReading {
  readonly analyses: readonly Configured[];
  readonly cwd: string;
  readonly maxLineBytes?: number;
  readonly signal?: AbortSignal;
  /** A file that could not be read, or a damaged report: said, and counted as an input error. */
  onProblem(message: string): void;
  /** Sees every item read from the arm's transcripts (contamination). */
  observe?(item: StreamItem): void;
}

/** Our JSON report starts with its schema version: enough to tell it from a transcript without reading it. */
const REPORT_START = /^\s*\{\s*"schemaVersion"\s*:/;

async function isSavedReport(path: string): Promise<boolean> {
  if (!path.endsWith('.json')) return false;
  const f = await open(path).catch(() => undefined);
  if (!f) return false;
  try {
    const b = Buffer.alloc(256);
    const { bytesRead } = await f.read(b, 0, b.length, 0);
    return REPORT_START.test(b.toString('utf8', 0, bytesRead));
  } finally {
    await f.close();
  }
}

/** A saved report, checked against the schema: a report of another version, or damaged, is refused by name. */
export async function readSavedReport(path: string, display: string): Promise<Report> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new InputError(`${printable(display)}: not a readable JSON report (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const version = (value as { schemaVersion?: unknown }).schemaVersion;
  if (version !== SCHEMA_VERSION) throw new InputError(`${printable(display)}: a report of schema version ${printable(String(version))}; this version reads ${SCHEMA_VERSION} — make it again from its transcripts`);
  const parsed = reportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`${printable(display)}: not a report of this tool at ${keyPath(issue.path)}: ${issue.message}`);
  }
  return parsed.data;
}

/** Transcripts through the default command's stages, to a report; `r.observe` sees every item. */
export async function readTranscripts(transcripts: readonly string[], r: ArmReading): Promise<Report> {
  const inputErrors: InputErrorItem[] = [];
  const problem = (file: string, message: string): void => {
    r.onProblem(message);
    inputErrors.push({ file, message });
  };
  const found = await discoverSessions(transcripts, r.cwd);
  for (const p of found.problems) problem(p.path, p.message);
  const warnings = [...found.warnings];
  const skipped = skippedWarning(found.skipped);
  if (skipped !== undefined) warnings.push(skipped);
  const builder = new ReportBuilder({ analyses: r.analyses, inputErrors, warnings });
  const source = readSessions(found.sessions, {
    batches: true,
    lazyLines: true,
    cwd: r.cwd,
    maxLineBytes: r.maxLineBytes,
    signal: r.signal,
    onInputError: (file, err) => problem(file, `cannot read ${file}: ${err.code ?? err.message}`),
  });
  await runPipeline(source, [fusedStages({ analyses: r.analyses, lazyResults: true })], [], (item) => {
    builder.add(item);
    r.observe?.(item);
    // The builder keeps it among the report's input errors; it is said here.
    if (item.kind === 'input_error') r.onProblem(item.message);
  });
  return builder.build();
}

/** The arm's inputs as one report: saved reports merged, transcripts read. */
export async function armReport(inputs: readonly string[], r: ArmReading): Promise<{ report: Report; inputErrors: number; savedReports: number }> {
  const saved: Report[] = [];
  const transcripts: string[] = [];
  for (const input of inputs) {
    if (input !== '-' && (await isSavedReport(resolve(r.cwd, input)))) saved.push(await readSavedReport(resolve(r.cwd, input), input));
    else transcripts.push(input);
  }
  const read = transcripts.length ? await readTranscripts(transcripts, r) : undefined;
  const all = read ? [...saved, read] : saved;
  const report = all.reduce((a, b) => mergeReports(a, b));
  return { report, inputErrors: report.inputErrors.length, savedReports: saved.length };
}
