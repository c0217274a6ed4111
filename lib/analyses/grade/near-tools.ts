// A rule whose tool name is a typo matches nothing, without a word:
// `Bsh(rm -rf:*)` forbids no call. What such a name was most likely meant
// to be: the nearest of Claude Code's own tools and of the names a session
// knew (announced in its catalog, or called) — an MCP tool's full name, or
// a server's for an `mcp__server` rule.
import { isMcpServer, ruleParts } from '../../permissions/rules.js';
import { CLAUDE_CODE_TOOLS, toolNames } from '../../core/tools.js';
import { nameDistance, nearestName } from '../../core/nearest-name.js';

const BUILT_IN: ReadonlySet<string> = new Set(CLAUDE_CODE_TOOLS);

/** The tool (or MCP server) a rule names, when it names one by a plain name (no glob). */
export function ruleToolName(source: string): string | undefined {
  const { name } = ruleParts(source);
  return name === '' || name.includes('*') ? undefined : name;
}

/** `mcp__server` of an MCP tool's name. */
function serverOf(tool: string): string | undefined {
  const cut = tool.indexOf('__', 5);
  return tool.startsWith('mcp__') && cut > 5 ? tool.slice(0, cut) : undefined;
}

/**
 * For a rule that matched no call of a session: the known name nearest the
 * rule's own — the rule's own when the session knew it (announced, not
 * called) — or undefined when the rule names one of Claude Code's tools, is
 * a glob, or is near nothing known.
 */
export function nearestTool(source: string, known: ReadonlySet<string>): string | undefined {
  const name = ruleToolName(source);
  if (name === undefined || toolNames(name).some((n) => BUILT_IN.has(n))) return undefined;
  if (isMcpServer(name)) {
    const servers = new Set<string>();
    for (const k of known) {
      const s = serverOf(k);
      if (s !== undefined) servers.add(s);
    }
    return servers.has(name) ? name : nearestName(name, servers);
  }
  if (toolNames(name).some((n) => known.has(n))) return name;
  return nearestName(name, [...CLAUDE_CODE_TOOLS, ...known]);
}

/** Of two sessions' nearest names for rule `source`, the nearer (the first in code-unit order when as near): merged reports are exact. */
export function nearerTool(source: string, a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const name = ruleToolName(source) ?? source;
  const da = nameDistance(name, a);
  const db = nameDistance(name, b);
  return da < db || (da === db && a <= b) ? a : b;
}

/** `source` with its tool name replaced by `tool`: the rule as it was likely meant. */
export function withToolName(source: string, tool: string): string {
  return `${tool}${source.slice(ruleParts(source).name.length)}`;
}
