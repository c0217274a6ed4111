// What a node of the action graph is called. A Bash call is the node of its
// command's class, so a force-push is not hidden behind a harmless `ls`; a
// catalog entry `Bash` stands for all four. A renamed tool is one node under
// its current name (`Task` calls land on `Agent`).
import { classifyBash } from './bash-class.js';
import { SHELL_TOOL, canonicalToolName } from '../../core/tools.js';
import { BLAST_CLASSES } from './config.js';

export const START = 'START';
export const END = 'END';
export const BASH_PREFIX = `${SHELL_TOOL}:`;
export const BASH_NODES = BLAST_CLASSES.map((c) => `${BASH_PREFIX}${c}`);

export function isPseudo(node: string): boolean {
  return node === START || node === END;
}

/** The node a call lands on. */
export function nodeOfCall(name: string, input: Record<string, unknown>): string {
  if (name !== SHELL_TOOL) return canonicalToolName(name);
  const command = input.command;
  return `${BASH_PREFIX}${classifyBash(typeof command === 'string' ? command : '')}`;
}

/** The nodes a catalog name stands for. */
export function nodesOfCatalogName(name: string): readonly string[] {
  return name === SHELL_TOOL ? BASH_NODES : [canonicalToolName(name)];
}

/**
 * `mcp__SERVER__tool` → SERVER. Server names contain `_` but not `__`, so the
 * name splits on the double underscore; the tool part may itself contain it.
 */
export function mcpServer(name: string): string | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const parts = name.split('__');
  return parts.length >= 3 && parts[1] !== '' ? parts[1] : undefined;
}

/** A `tools/list` name as a catalog node: bare names get `mcp__SERVER__`. */
export function mcpToolName(server: string | undefined, name: string): string {
  if (server === undefined || name.startsWith('mcp__')) return name;
  return `mcp__${server}__${name}`;
}
