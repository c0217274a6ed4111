// The warnings an analysis command tells on stderr once the run is read, and
// the report as the text report shows it on the terminal stderr is: without
// them, so that on a terminal each warning is read once. A text report to a
// pipe or a file keeps them all: a saved report is whole.
import type { Report } from '../report/index.js';

/** The stream's own warnings (sessions missing their subagents' transcripts) stderr tells one by one; the rest it counts. */
export const TOLD_WARNINGS = 10;

/** grade's warnings that stderr tells too: those about the user's own --outcomes file. */
const toldGradeWarning = (w: string): boolean => w.startsWith('--outcomes');

/**
 * The report's own warnings stderr tells, as the report holds them: every
 * one the command gave (`given`: the inputs', why nothing was graded), and
 * the first TOLD_WARNINGS of the stream's; and how many of the stream's it
 * only counts.
 */
function toldOfReport(report: Report, given: readonly string[]): { told: string[]; counted: number } {
  const own = new Set(given);
  const streamed = report.warnings.filter((w) => !own.has(w));
  const told = [...report.warnings.filter((w) => own.has(w)), ...streamed.slice(0, TOLD_WARNINGS)];
  return { told, counted: Math.max(0, streamed.length - TOLD_WARNINGS) };
}

/**
 * The lines (without the program's prefix) stderr tells of `report`'s
 * warnings: the report's own (but those in `said`, told already in another
 * form, such as the line saying why nothing was graded), then grade's about
 * --outcomes, then usage's cost warnings.
 */
export function toldWarnings(report: Report, given: readonly string[], said: ReadonlySet<string>): string[] {
  const { told, counted } = toldOfReport(report, given);
  const lines = told.filter((w) => !said.has(w)).map((w) => `warning: ${w}`);
  if (counted > 0) lines.push(`warning: … and ${counted} more sessions like these (the report's warnings list them all)`);
  for (const w of report.grade?.warnings.filter(toldGradeWarning) ?? []) lines.push(`warning: ${w}`);
  // Our cost against the agent's own: told where a person looks, whatever the reporter.
  for (const w of report.tokens?.warnings ?? []) lines.push(`warning: usage: ${w}`);
  return lines;
}

/** The report without what `toldWarnings` tells (or has said already): the text report beside stderr on one terminal. */
export function withoutToldWarnings(given: readonly string[]): (report: Report) => Report {
  return (report) => {
    const told = new Set(toldOfReport(report, given).told);
    const view: Report = { ...report, warnings: report.warnings.filter((w) => !told.has(w)) };
    if (report.grade) view.grade = { ...report.grade, warnings: report.grade.warnings.filter((w) => !toldGradeWarning(w)) };
    if (report.tokens?.warnings) {
      const { warnings: _told, ...tokens } = report.tokens;
      view.tokens = tokens;
    }
    return view;
  };
}

/** Stdout and stderr both a terminal, and stderr tells the warnings: the same screen, where one copy is enough. */
export function warningsOnSameTerminal(io: { stdout: unknown; stderr: unknown }, quiet: boolean): boolean {
  const tty = (s: unknown): boolean => (s as { isTTY?: boolean }).isTTY === true;
  return !quiet && tty(io.stdout) && tty(io.stderr);
}
