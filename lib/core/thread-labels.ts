// Who each thread of a session is, for an analysis that reports per thread:
// a subagent by the type and description its Task/Agent call gave, and
// Claude Code's own helper agents (the compaction summariser…), which are
// not the agent under test and get no figures.
import type { EventOf } from './events.js';
import { isDelegation } from './tools.js';

/** Labels are the agent's text: kept short. */
export const MAX_LABEL = 80;

export interface ThreadLabel {
  readonly agentType?: string;
  readonly description?: string;
}

const cut = (s: unknown): string | undefined => (typeof s === 'string' && s !== '' ? s.slice(0, MAX_LABEL) : undefined);

export class ThreadLabels {
  #labels = new Map<string, ThreadLabel>();
  #internal = new Set<string>();

  /** A delegation's type and description label the thread it starts (the call's id). */
  call(ev: EventOf<'tool_call'>): void {
    if (!isDelegation(ev.name)) return;
    const agentType = cut(ev.input.subagent_type);
    const description = cut(ev.input.description);
    this.#labels.set(ev.id, { ...(agentType ? { agentType } : {}), ...(description ? { description } : {}) });
  }

  open(ev: EventOf<'thread_open'>): void {
    if (ev.threadKind === 'internal') this.#internal.add(ev.thread);
  }

  /** A thread's label, forgotten: it has closed. */
  take(thread: string): ThreadLabel | undefined {
    const label = this.#labels.get(thread);
    this.#labels.delete(thread);
    return label;
  }

  isInternal(thread: string): boolean {
    return this.#internal.has(thread);
  }

  reset(): void {
    this.#labels = new Map();
    this.#internal = new Set();
  }
}

/** The main thread's figures first, then the others in the order given. */
export function mainFirst<T extends { readonly thread: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => Number(b.thread === 'main') - Number(a.thread === 'main'));
}
