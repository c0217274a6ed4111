// Which thread a session-file line belongs to when nothing says it outright
// (Claude Code 1.0 and earlier): a ≤ 1.0 file keeps its subagents inline as
// `isSidechain` lines, each subagent a new root whose text is the Task's
// prompt — so a root is linked to the Task call with that prompt, in order,
// and the lines after it follow their `parentUuid`. A subagent file read on
// its own (`agentId` on every line) is an orphan thread. Claude Code's own
// helpers ("Warmup", the compaction summariser) are internal.
import type { ThreadKind } from '../../core/events.js';
import { textOf } from '../../core/deep-values.js';

export interface ThreadDecision {
  readonly thread: string;
  /** Set when this line opens the thread. */
  readonly opens?: { readonly kind: ThreadKind; readonly spawnedBy: string | null };
}

const INTERNAL_AGENT = /^(acompact|aprompt_suggestion)-/;

/** The text of a user line: its string content, or its text blocks joined (images as `[image]`). */
export function userText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const parts: string[] = [];
  for (const b of content) {
    const type = typeof b === 'object' && b !== null ? (b as { type?: unknown }).type : undefined;
    // A person may paste an image or a document with the words; a tool result is never a prompt.
    if (type === 'image' || type === 'document') parts.push(`[${type}]`);
    else if (type === 'text') parts.push(textOf((b as { text?: unknown }).text));
    else return undefined;
  }
  return parts.join('\n');
}

export class SidechainLinker {
  /** Task/Agent calls still running, by their prompt, in call order. */
  #pending = new Map<string, string[]>();
  /** Sidechain line uuid → its thread, and each thread's uuids so they can be dropped. */
  #byUuid = new Map<string, string>();
  #uuids = new Map<string, string[]>();
  #open = new Set<string>();

  /** A delegation was made: its subagent's root will carry this prompt. */
  delegated(toolUseId: string, prompt: string): void {
    const q = this.#pending.get(prompt);
    if (q) q.push(toolUseId);
    else this.#pending.set(prompt, [toolUseId]);
  }

  /** A delegation returned: its sidechain will not grow any more. */
  returned(toolUseId: string): void {
    for (const [prompt, q] of this.#pending) {
      const i = q.indexOf(toolUseId);
      if (i === -1) continue;
      q.splice(i, 1);
      if (!q.length) this.#pending.delete(prompt);
    }
    for (const u of this.#uuids.get(toolUseId) ?? []) this.#byUuid.delete(u);
    this.#uuids.delete(toolUseId);
  }

  /** The thread of a sidechain line (isSidechain: true, no outer thread). */
  thread(v: Record<string, unknown>): ThreadDecision {
    const uuid = typeof v.uuid === 'string' ? v.uuid : undefined;
    const d = this.#decide(v, uuid);
    if (uuid !== undefined) {
      this.#byUuid.set(uuid, d.thread);
      const list = this.#uuids.get(d.thread);
      if (list) list.push(uuid);
      else this.#uuids.set(d.thread, [uuid]);
    }
    if (this.#open.has(d.thread)) return { thread: d.thread };
    this.#open.add(d.thread);
    return d;
  }

  #decide(v: Record<string, unknown>, uuid: string | undefined): ThreadDecision {
    const agentId = typeof v.agentId === 'string' ? v.agentId : undefined;
    if (agentId !== undefined) return { thread: `agent-${agentId}`, opens: { kind: INTERNAL_AGENT.test(agentId) ? 'internal' : 'orphan', spawnedBy: null } };
    const parent = typeof v.parentUuid === 'string' ? this.#byUuid.get(v.parentUuid) : undefined;
    if (parent !== undefined) return { thread: parent };
    if (v.type === 'user') {
      const text = userText((v.message as { content?: unknown } | undefined)?.content);
      const q = text === undefined ? undefined : this.#pending.get(text);
      const spawnedBy = q?.shift();
      if (q && !q.length && text !== undefined) this.#pending.delete(text);
      if (spawnedBy !== undefined) return { thread: spawnedBy, opens: { kind: text === 'Warmup' ? 'internal' : 'sidechain', spawnedBy } };
      if (text === 'Warmup') return { thread: `sidechain-${uuid ?? 'warmup'}`, opens: { kind: 'internal', spawnedBy: null } };
    }
    return { thread: `sidechain-${uuid ?? 'unlinked'}`, opens: { kind: 'orphan', spawnedBy: null } };
  }
}
