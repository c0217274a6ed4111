// A graded run's requests: tokens, each API message once (usage's rules,
// lib/core/message-tally.ts), their cost by the price table, models without
// a price named apart, and the wall time from the first timestamp to the last.
import type { UsageEvent } from '../../core/message-tally.js';
import { MessageTally } from '../../core/message-tally.js';
import { modelKey, requestUsd } from '../../core/prices.js';
import type { Price } from '../../core/prices.js';

/** A run's requests: tokens, each message once, and their cost; models without a price named apart. */
export interface RunUsage {
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  costUsd: number;
  unpriced?: string[];
  /** From its first request or tool result to its last, when they carry timestamps. */
  wallMs?: number;
}

/** Unpriced models named per run: usage's own list is the full one. */
const MAX_UNPRICED = 20;

export class RunUsageCounter {
  readonly #price: (model: string) => Price | undefined;
  /** Undefined until a request is counted: a source that records no usage has none. */
  #used: RunUsage | undefined;
  readonly #tally = new MessageTally((u, again) => this.#count(u, again));
  readonly #unpriced = new Set<string>();
  #firstTs: string | undefined;
  #lastTs: string | undefined;

  constructor(price: (model: string) => Price | undefined) {
    this.#price = price;
  }

  add(u: UsageEvent): void {
    if (u.ts !== undefined) this.seen(u.ts);
    this.#tally.add(u);
  }

  /** A request or a result with a timestamp: the run's wall time spans them. */
  seen(ts: string): void {
    this.#firstTs ??= ts;
    this.#lastTs = ts;
  }

  /** The thread is over: its last message's usage counts. */
  threadEnds(thread: string): void {
    this.#tally.flush(thread);
  }

  /** The run's usage, once it is over. */
  finish(): RunUsage | undefined {
    this.#tally.flushAll();
    const used = this.#used;
    if (!used) return undefined;
    if (this.#unpriced.size) used.unpriced = [...this.#unpriced].sort();
    const wall = this.#firstTs !== undefined && this.#lastTs !== undefined ? Date.parse(this.#lastTs) - Date.parse(this.#firstTs) : NaN;
    if (Number.isFinite(wall) && wall >= 0) used.wallMs = wall;
    return used;
  }

  #count(u: UsageEvent, again: boolean): void {
    const model = modelKey(u.model);
    const usd = requestUsd(u, this.#price(model));
    // Added in place: one object per run, not one per request.
    const used = (this.#used ??= { messages: 0, input: 0, output: 0, cacheRead: 0, cacheCreation: 0, costUsd: 0 });
    const sum = (a: number, b: number): number => Math.min(a + b, Number.MAX_VALUE);
    if (!again) used.messages++;
    used.input = sum(used.input, u.input);
    used.output = sum(used.output, u.output);
    used.cacheRead = sum(used.cacheRead, u.cacheRead);
    used.cacheCreation = sum(used.cacheCreation, u.cacheCreation);
    used.costUsd = sum(used.costUsd, usd ?? 0);
    if (usd === null && this.#unpriced.size < MAX_UNPRICED) this.#unpriced.add(model);
  }
}
