// What a tool pattern must look like for Claude Code to read it: checked
// where a pattern is written (a config key, a flag), so a pattern Claude
// Code would not read is an error there, not a rule that never matches.
import { z } from 'zod';

/** What is wrong with a pattern's syntax, if anything (the config rejects it). */
export function patternProblem(source: string): string | undefined {
  if (source.trim() === '') return 'an empty tool pattern';
  const open = source.indexOf('(');
  if (open === 0) return `'${source}': no tool name before '('`;
  if (open > 0 && !source.endsWith(')')) return `'${source}': '(' without a closing ')'`;
  if (open === -1 && source.includes(')')) return `'${source}': ')' without '('`;
  return undefined;
}

/** A tool pattern as a config value: one Claude Code would accept (tool-pattern.ts matches it). */
export const toolPatternSchema = z.string().superRefine((s, ctx) => {
  const problem = patternProblem(s);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});
