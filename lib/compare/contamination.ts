// Contamination: a run of an arm that must not use some tools (the
// without-CodeGraph arm of an A/B evaluation) that used one anyway. A call
// of an excluded tool — an MCP tool, or a command run through Bash —
// contaminates its run when its result reached the agent: output, even of a
// command that then failed. A call refused before it ran (permission
// denied, a hook's block, "No such tool available" while a server starts)
// or that never answered put nothing into the agent's context, and is
// counted apart as blocked (the CodeGraph evaluation's parser draws the
// same line for its CLI). Patterns are permission rules, as grading's
// (`mcp__codegraph__*`, `Bash(codegraph *)`).
//
// It reads the canonical events of the arm's transcripts: a saved report
// does not list its calls, so an arm read from saved reports cannot be
// checked (the command says so).
import type { StreamItem } from '../core/items.js';
import { isAnalysisItem } from '../core/items.js';
import { SHELL_TOOL } from '../core/tools.js';
import { clip } from '../core/records.js';
import { parseToolPattern } from '../analyses/grade/patterns.js';
import type { ToolPattern } from '../analyses/grade/patterns.js';

export interface SessionContamination {
  /** The excluded calls that reached the agent: tool, and the command for Bash. */
  readonly calls: string[];
  /** Excluded commands whose run was refused or failed: nothing entered the context. */
  readonly blocked: number;
}

const MAX_LISTED = 10;
/** How Claude Code words a call refused before it ran: a permission rule, the user, a hook, a tool not (yet) there. */
const REFUSED = /permission to use|has been denied|doesn't want to proceed|blocked by|No such tool available|<tool_use_error>/i;
const MAX_COMMAND = 80;

export class ContaminationTracker {
  readonly #patterns: readonly ToolPattern[];
  /** Excluded calls awaiting their result, by id: what they ran. */
  #pending = new Map<string, string>();
  #current: { calls: string[]; blocked: number } = { calls: [], blocked: 0 };
  readonly #bySession = new Map<string, SessionContamination>();

  constructor(patterns: readonly string[]) {
    this.#patterns = patterns.map((p) => parseToolPattern(p));
  }

  observe(item: StreamItem): void {
    if (isAnalysisItem(item)) return;
    switch (item.kind) {
      case 'session_start':
        this.#pending.clear();
        this.#current = { calls: [], blocked: 0 };
        return;
      case 'tool_call': {
        const call = { id: item.id, name: item.name, input: item.input, thread: item.thread, cwd: item.cwd };
        if (!this.#patterns.some((p) => p.matches(call))) return;
        const what = item.name === SHELL_TOOL && typeof item.input.command === 'string' ? `${item.name}(${clip(item.input.command, MAX_COMMAND)})` : item.name;
        this.#pending.set(item.id, what);
        return;
      }
      case 'tool_result': {
        const what = this.#pending.get(item.id);
        if (what === undefined) return;
        this.#pending.delete(item.id);
        if (item.isError && (item.text.trim() === '' || REFUSED.test(item.text))) this.#current.blocked++;
        else this.#add(what);
        return;
      }
      case 'session_end': {
        // A call with no result never returned output.
        this.#current.blocked += this.#pending.size;
        this.#pending.clear();
        const seen = this.#bySession.get(item.session);
        if (!seen || (seen.calls.length === 0 && this.#current.calls.length > 0)) this.#bySession.set(item.session, this.#current);
        this.#current = { calls: [], blocked: 0 };
        return;
      }
      default:
    }
  }

  #add(what: string): void {
    if (this.#current.calls.length < MAX_LISTED) this.#current.calls.push(what);
    else if (this.#current.calls.length === MAX_LISTED) this.#current.calls.push('…');
  }

  /** Per session, what was found (sessions with nothing excluded called: none). */
  bySession(): ReadonlyMap<string, SessionContamination> {
    return this.#bySession;
  }
}
