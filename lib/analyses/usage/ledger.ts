// One session's requests, each message counted once (lib/core/message-tally.ts)
// and priced as it is counted, with what the agent itself reported beside
// them. Claude Code's stream-json writes a message's usage while the message
// is still being written: its input and cache counts are final, its
// `output_tokens` a snapshot of a few tokens (each such usage event says
// `partial`). A `result` closes the turn with the main loop's real figures,
// so the main thread's turn is brought up to them; a subagent's messages
// have no such figure and stay lower bounds. What the result's cumulative
// figures count beyond every thread (subagents' missing output, Claude
// Code's own requests) is the session's unattributed part (reconcile.ts).
import type { EventOf } from '../../core/events.js';
import type { UsageEvent } from '../../core/message-tally.js';
import { MessageTally } from '../../core/message-tally.js';
import { bandOf, costOf, modelKey, requestUsd, UNKNOWN_MODEL } from '../../core/prices.js';
import type { Price } from '../../core/prices.js';
import type { ModelTokens, ReportedUsage } from './token-counts.js';
import { add, emptyTokenCounts } from './token-counts.js';
import { ReportedCounters } from './reported.js';

/** Models kept apart per thread; more (hostile input) are counted together. */
const MAX_MODELS = 64;
export const OTHER_MODELS = '(other models)';

export interface LedgerThread {
  /** Per model: a Map, so a model named `__proto__` is a model like any other. */
  readonly byModel: Map<string, ModelTokens>;
  /** Its messages counted with a snapshot for output, not since brought up to a result's figure. */
  partial: number;
}

export interface LedgerTotals {
  /** By thread name (input): a Map, so `__proto__` is a thread like any other. */
  readonly threads: ReadonlyMap<string, LedgerThread>;
  readonly reported: ReportedUsage | undefined;
}

type Kinds = Pick<ModelTokens, 'input' | 'output' | 'cacheRead' | 'cacheCreation'>;

interface Turn extends Kinds {
  /** Its messages counted with a snapshot for output. */
  partial: number;
  /** Its last request: the model and band a result's extra tokens are priced at. */
  last: { model: string; prompt: number } | undefined;
}

const emptyTurn = (): Turn => ({ input: 0, output: 0, cacheRead: 0, cacheCreation: 0, partial: 0, last: undefined });
const emptyModel = (): ModelTokens => ({ ...emptyTokenCounts(), cacheCreation1h: 0, costUsd: 0 });
const KINDS = ['input', 'output', 'cacheRead', 'cacheCreation'] as const;

export class UsageLedger {
  readonly #price: (model: string) => Price | undefined;
  readonly #tally = new MessageTally((u, again) => this.#count(u, again));
  readonly #threads = new Map<string, LedgerThread>();
  readonly #reported = new ReportedCounters();
  /** The main thread's requests since the last result: the result's turn figures replace their sum. */
  #turn = emptyTurn();
  /** The main thread's last model, for a turn whose requests the input lost. */
  #mainModel: string | undefined;

  constructor(price: (model: string) => Price | undefined) {
    this.#price = price;
  }

  add(u: UsageEvent): void {
    this.#tally.add(u);
  }

  /** The thread is over: its last message counts. */
  threadEnds(thread: string): void {
    this.#tally.flush(thread);
  }

  /** The agent's own figures: a result's turn brings the main thread up to them; the cumulative ones are kept. */
  reported(ev: EventOf<'reported_usage'>): void {
    if (ev.turn) {
      this.#tally.flush('main');
      this.#closeTurn(ev.turn);
    }
    this.#reported.add(ev);
  }

  /** Every thread's figures, once the session is over. */
  finish(): LedgerTotals {
    this.#tally.flushAll();
    return { threads: this.#threads, reported: this.#reported.value };
  }

  #thread(name: string): LedgerThread {
    let t = this.#threads.get(name);
    if (!t) this.#threads.set(name, (t = { byModel: new Map(), partial: 0 }));
    return t;
  }

  #model(t: LedgerThread, named: string): { model: string; m: ModelTokens } {
    const model = t.byModel.size >= MAX_MODELS && !t.byModel.has(named) ? OTHER_MODELS : named;
    let m = t.byModel.get(model);
    if (!m) t.byModel.set(model, (m = emptyModel()));
    return { model, m };
  }

  #count(u: UsageEvent, again: boolean): void {
    const t = this.#thread(u.thread);
    const { model, m } = this.#model(t, modelKey(u.model));
    const usd = requestUsd(u, model === OTHER_MODELS ? undefined : this.#price(model));
    // Added in place: one object per thread and model, not one per request.
    if (!again) m.messages++;
    addKinds(m, u);
    m.cacheCreation1h = add(m.cacheCreation1h, u.cacheCreation1h ?? 0);
    m.costUsd = m.costUsd === null || usd === null ? null : add(m.costUsd, usd);
    const partial = u.partial === true && !again ? 1 : 0;
    t.partial += partial;
    if (u.thread !== 'main') return;
    const turn = this.#turn;
    addKinds(turn, u);
    turn.partial += partial;
    turn.last = { model, prompt: u.input + u.cacheRead + u.cacheCreation };
    this.#mainModel = model;
  }

  /**
   * A result's figures for the turn: what they count beyond the turn's
   * requests (the output written after each snapshot) is added to the main
   * thread, at the price of the turn's last request. A result that counts
   * less output than the snapshots (not what Claude Code writes) corrects
   * nothing, and the turn's counts stay lower bounds.
   */
  #closeTurn(r: Kinds): void {
    const turn = this.#turn;
    this.#turn = emptyTurn();
    const extra = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
    for (const k of KINDS) extra[k] = Math.max(0, r[k] - turn[k]);
    const main = this.#thread('main');
    if (KINDS.some((k) => extra[k] > 0)) {
      const { model, m } = this.#model(main, turn.last?.model ?? this.#mainModel ?? UNKNOWN_MODEL);
      const price = model === OTHER_MODELS ? undefined : this.#price(model);
      const usd = price ? costOf(extra, bandOf(turn.last?.prompt ?? 0, price)) : null;
      addKinds(m, extra);
      m.costUsd = m.costUsd === null || usd === null ? null : add(m.costUsd, usd);
    }
    if (r.output >= turn.output) main.partial -= turn.partial;
  }
}

function addKinds(to: Kinds, from: Kinds): void {
  to.input = add(to.input, from.input);
  to.output = add(to.output, from.output);
  to.cacheRead = add(to.cacheRead, from.cacheRead);
  to.cacheCreation = add(to.cacheCreation, from.cacheCreation);
}
