// The warnings an analysis command tells on stderr once the run is read, and
// the report as the text report shows it on the terminal stderr is: without
// them, so that on a terminal each warning is read once. A text report to a
// pipe or a file keeps them all: a saved report is whole.
import type { Report } from '../report/index.js';

/** grade's warnings that stderr tells too: those about the user's own --outcomes file. */
const toldGradeWarning = (w: string): boolean => w.startsWith('--outcomes');

/**
 * The lines (without the program's prefix) that stderr tells of `report`'s
 * warnings: each of the report's own, but those in `said` (already told in
 * another form, such as the line saying why nothing was graded), then
 * grade's about --outcomes, then usage's cost warnings.
 */
export function toldWarnings(report: Report, said: ReadonlySet<string>): string[] {
  const lines = report.warnings.filter((w) => !said.has(w)).map((w) => `warning: ${w}`);
  for (const w of report.grade?.warnings.filter(toldGradeWarning) ?? []) lines.push(`warning: ${w}`);
  // Our cost against the agent's own: told where a person looks, whatever the reporter.
  for (const w of report.tokens?.warnings ?? []) lines.push(`warning: usage: ${w}`);
  return lines;
}

/** `report` without what `toldWarnings` tells (and what it leaves out as said already): the text report beside it on one terminal. */
export function withoutToldWarnings(report: Report): Report {
  const view: Report = { ...report, warnings: [] };
  if (report.grade) view.grade = { ...report.grade, warnings: report.grade.warnings.filter((w) => !toldGradeWarning(w)) };
  if (report.tokens?.warnings) {
    const { warnings: _told, ...tokens } = report.tokens;
    view.tokens = tokens;
  }
  return view;
}

/** Stdout and stderr both a terminal, and stderr tells the warnings: the same screen, where one copy is enough. */
export function warningsOnSameTerminal(io: { stdout: unknown; stderr: unknown }, quiet: boolean): boolean {
  const tty = (s: unknown): boolean => (s as { isTTY?: boolean }).isTTY === true;
  return !quiet && tty(io.stdout) && tty(io.stderr);
}
