// Token totals per thread and in all. Claude Code repeats a message's usage
// on every block of it, growing `output_tokens` as it streams: each
// `message.id` counts once, with the last usage seen (the reference's
// session script summed every line and counted multi-block messages twice).
// Blocks of one message arrive together within their thread, so one message
// per thread is kept open: memory is bounded by open threads.
import type { EventOf } from '../../core/events.js';
import type { StreamItem } from '../../core/items.js';
import { isAnalysisItem } from '../../core/items.js';
import type { Push, StageLogic } from '../../core/stage.js';
import type { ReportedUsage, TokenCounts } from './token-counts.js';
import { addTokenCounts, emptyTokenCounts, usageSummary } from './token-counts.js';

export class UsageCounter implements StageLogic<StreamItem, StreamItem> {
  /** The message still streaming in each thread, with its latest usage. */
  #open = new Map<string, EventOf<'usage'>>();
  /** By thread name (input): a Map, so `__proto__` is a thread like any other. */
  #byThread = new Map<string, TokenCounts>();
  /** The session's last result's totals: cumulative, so the last one is the session's. */
  #reported: ReportedUsage | undefined;

  step(ev: StreamItem, push: Push<StreamItem>): void {
    push(ev);
    if (isAnalysisItem(ev)) return;
    switch (ev.kind) {
      case 'session_start':
        this.#open.clear();
        this.#byThread = new Map();
        this.#reported = undefined;
        return;
      case 'turn_end': {
        const o = ev.outcome;
        if (o && (o.costUsd !== undefined || o.byModel !== undefined)) this.#reported = { costUsd: o.costUsd ?? 0, byModel: o.byModel ?? {} };
        return;
      }
      case 'usage': {
        const cur = this.#open.get(ev.thread);
        if (cur && cur.messageId !== ev.messageId) this.#count(cur);
        this.#open.set(ev.thread, ev);
        return;
      }
      case 'thread_close':
        this.#flush(ev.thread);
        return;
      case 'session_end': {
        for (const thread of [...this.#open.keys()]) this.#flush(thread);
        const total = [...this.#byThread.values()].reduce(addTokenCounts, emptyTokenCounts());
        push(usageSummary(ev.session, total, Object.fromEntries(this.#byThread), this.#reported));
        this.#byThread = new Map();
        this.#reported = undefined;
        return;
      }
      default:
        return;
    }
  }

  #flush(thread: string): void {
    const cur = this.#open.get(thread);
    if (cur) this.#count(cur);
    this.#open.delete(thread);
  }

  #count(u: EventOf<'usage'>): void {
    this.#byThread.set(u.thread, addTokenCounts(this.#byThread.get(u.thread) ?? emptyTokenCounts(), { messages: 1, input: u.input, output: u.output, cacheRead: u.cacheRead, cacheCreation: u.cacheCreation }));
  }
}
