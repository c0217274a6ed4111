// One arm of `compare` as a report: its saved JSON reports merged, and its
// transcripts read through the same stages as the default command — so a
// comparison of saved reports gives the answer the comparison of their
// transcripts does.
import { resolve } from 'node:path';
import type { Configured } from '../analyses/types.js';
import { discoverSessions, skippedWarning } from '../io/inputs.js';
import { readSessions } from '../io/source.js';
import { ReportBuilder } from '../report/index.js';
import { isSavedReport, readSavedReport } from './saved-report.js';
import { mergeReports } from '../report/merge.js';
import type { Report } from '../report/index.js';
import { fusedStages } from '../../transforms/pipeline.js';
import { runPipeline } from '../../transforms/run-pipeline.js';
import type { InputErrorItem } from '../core/input-error.js';
import type { StreamItem } from '../core/items.js';
import type { CliIO } from './io.js';
import { say } from './io.js';

export interface ArmReading {
  readonly analyses: readonly Configured[];
  readonly cwd: string;
  readonly maxLineBytes?: number;
  readonly signal?: AbortSignal;
  /** Where an input `-` reads from (default: process.stdin). */
  readonly stdin?: NodeJS.ReadableStream;
  /** A file that could not be read, or a damaged report: said, and counted as an input error. */
  onProblem(message: string): void;
  /** Sees every item read from the arm's transcripts (contamination). */
  observe?(item: StreamItem): void;
}

/** How a command reads: from its working folder and its stdin, stopped by its signal, each problem said on stderr unless `--quiet`. */
export function cliReading(io: CliIO, analyses: readonly Configured[], o: { readonly maxLineBytes?: number; readonly quiet?: boolean }): ArmReading {
  return {
    analyses,
    cwd: io.cwd,
    maxLineBytes: o.maxLineBytes,
    signal: io.signal,
    stdin: io.stdin,
    onProblem: (m) => {
      if (!o.quiet) say(io, m);
    },
  };
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
    stdin: r.stdin,
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
