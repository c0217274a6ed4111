// Each API message counted once, with its last usage. Claude Code repeats a
// message's usage on every block of it, growing `output_tokens` as it
// streams; blocks of one message arrive together within their thread, so one
// message per thread is held open, and it counts when the thread's next
// message starts, the thread closes or the session ends: memory is bounded
// by open threads.
import type { EventOf } from './events.js';

export type UsageEvent = EventOf<'usage'>;

export class MessageTally {
  /** The message still streaming in each thread, with its latest usage. */
  readonly #open = new Map<string, UsageEvent>();
  readonly #count: (u: UsageEvent) => void;

  /** `count` is called once per message, with its last usage. */
  constructor(count: (u: UsageEvent) => void) {
    this.#count = count;
  }

  add(u: UsageEvent): void {
    const cur = this.#open.get(u.thread);
    if (cur && cur.messageId !== u.messageId) this.#count(cur);
    this.#open.set(u.thread, u);
  }

  /** The thread is over: its open message counts. */
  flush(thread: string): void {
    const cur = this.#open.get(thread);
    if (cur) this.#count(cur);
    this.#open.delete(thread);
  }

  flushAll(): void {
    for (const thread of [...this.#open.keys()]) this.flush(thread);
  }

  /** Forget what is open without counting it (a new session). */
  clear(): void {
    this.#open.clear();
  }
}
