// Facts about Claude Code's own tool names that more than one analysis needs.
// Never a closed list of what may appear: unknown names are ordinary tools.

/** Spawn a subagent; `Task` was renamed `Agent` in newer Claude Code. */
export const DELEGATION_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent']);

/** Bookkeeping calls that say nothing about a response: stepped over when looking for a reaction. */
export const TRANSPARENT_TOOLS: ReadonlySet<string> = new Set(['ToolSearch', 'TodoWrite']);

/** Tools that show the agent a file's content. */
export const READ_TOOLS: ReadonlySet<string> = new Set(['Read', 'NotebookRead']);

/** Tools that look for files or lines rather than show a file. */
export const SEARCH_TOOLS: ReadonlySet<string> = new Set(['Grep', 'Glob']);

/** Tools that change a file in place. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

export const SHELL_TOOL = 'Bash';

export function isDelegation(name: string): boolean {
  return DELEGATION_TOOLS.has(name);
}

export function isTransparent(name: string): boolean {
  return TRANSPARENT_TOOLS.has(name);
}

/** The file a Read-like or Edit-like call names, if any. */
export function filePathOf(input: Record<string, unknown>): string | undefined {
  const p = input.file_path ?? input.notebook_path ?? input.path;
  return typeof p === 'string' && p !== '' ? p : undefined;
}
