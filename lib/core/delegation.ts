// A `Task`/`Agent` call stands for what its subagent did first. This stage
// resolves each delegation to the subagent's first substantive call — not a
// bookkeeping call, not a further delegation — and says so in the parent's
// thread the moment it is known:
//   found  — that first call;
//   none   — the subagent thread ended without one ("moved on");
//   failed — the call came back an error before any subagent spoke (an
//            `InputValidationError`, an unknown agent type): no subagent
//            ran, so it is an ordinary call;
//   absent — the thread never appeared in the input (background subagents
//            print nothing in stream-json): the delegation cannot be judged.
import type { CanonicalEvent, EventOf } from './events.js';
import type { StreamItem } from './items.js';
import type { Push, StageLogic } from './stage.js';
import { isDelegation, isTransparent } from './tools.js';

interface Pending {
  readonly call: EventOf<'tool_call'>;
  opened: boolean;
}

function resolved(p: Pending, from: CanonicalEvent, outcome: 'found' | 'none' | 'failed' | 'absent', first?: EventOf<'tool_call'>): CanonicalEvent {
  const c = p.call;
  return {
    kind: 'delegation_resolved',
    source: from.source,
    file: from.file,
    line: from.line,
    session: from.session,
    segment: from.segment,
    seq: from.seq,
    thread: c.thread,
    uuid: undefined,
    ts: from.ts,
    cwd: c.cwd,
    id: c.id,
    name: c.name,
    outcome,
    first: first ? { id: first.id, name: first.name, input: first.input, thread: first.thread, cwd: first.cwd } : undefined,
  };
}

export class DelegationResolver implements StageLogic<StreamItem, StreamItem> {
  /** Unresolved delegations by call id (= their subagent's thread id). */
  #pending = new Map<string, Pending>();

  step(ev: StreamItem, push: Push<StreamItem>): void {
    // Resolutions a run's end forces come before the end itself.
    if (ev.kind === 'turn_end' && ev.reason !== 'user_prompt') this.#flush(ev, push);
    else if (ev.kind === 'session_end') {
      if (ev.stopped) this.#pending.clear();
      else this.#flush(ev, push);
    }
    push(ev);
    switch (ev.kind) {
      case 'tool_call': {
        const p = this.#pending.get(ev.thread);
        if (p && !isTransparent(ev.name) && !isDelegation(ev.name)) {
          this.#pending.delete(ev.thread);
          push(resolved(p, ev, 'found', ev));
        }
        if (isDelegation(ev.name)) this.#pending.set(ev.id, { call: ev, opened: false });
        return;
      }
      case 'tool_result': {
        // Its subagent's events come before its result; an error with none
        // before it means no subagent ran (an open thread closed already).
        const p = this.#pending.get(ev.id);
        if (p && ev.isError) {
          this.#pending.delete(ev.id);
          push(resolved(p, ev, p.opened ? 'none' : 'failed'));
        }
        return;
      }
      case 'thread_open': {
        const p = this.#pending.get(ev.thread);
        if (p) p.opened = true;
        return;
      }
      case 'thread_close': {
        const p = this.#pending.get(ev.thread);
        if (p) {
          this.#pending.delete(ev.thread);
          push(resolved(p, ev, 'none'));
        }
        return;
      }
      default:
        return;
    }
  }

  /** After a run ends, a subagent that never spoke never will. */
  #flush(from: CanonicalEvent, push: Push<StreamItem>): void {
    for (const p of this.#pending.values()) push(resolved(p, from, p.opened ? 'none' : 'absent'));
    this.#pending.clear();
  }
}
