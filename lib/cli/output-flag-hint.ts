// `-o FILE` (or `--output FILE`) given to a command that writes its reports
// with `--reporter NAME=FILE`: other tools' way of saying where a report
// goes, so the message names this one's.

/** The hint for `flag` given to a command that knows `known` (long names), if it is an output flag the command has no use for. */
export function outputFlagHint(flag: string, known: readonly string[]): string | undefined {
  const name = flag.replace(/=.*$/, '');
  if (name !== '-o' && name !== '--output') return undefined;
  return known.includes('reporter') && !known.includes('output') ? 'did you mean --reporter json=FILE?' : undefined;
}
