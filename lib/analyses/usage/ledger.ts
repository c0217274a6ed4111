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
import { bandOf, canonicalModel, costOf, modelKey, requestUsd } from '../../core/prices.js';
import type { Price } from '../../core/prices.js';
import type { ModelTokens, ModelUsage, ReportedUsage } from './token-counts.js';
import { add, emptyTokenCounts } from './token-counts.js';
import { ReportedCounters } from './reported.js';

/** Models kept apart per thread; more (hostile input) are counted together. */
export const MAX_MODELS = 64;
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
  /** A snapshot count arrived after the agent's last per-model report: the report does not cover it. */
  readonly partialAfterReport: boolean;
}

type Kinds = Pick<ModelTokens, 'input' | 'output' | 'cacheRead' | 'cacheCreation'>;

interface Turn extends Kinds {
  /** Its messages counted with a snapshot for output. */
  partial: number;
  /** The models its requests used, each with its last request's prompt (the band a correction is priced at), in the order last used. */
  readonly models: Map<string, number>;
}

const emptyTurn = (): Turn => ({ input: 0, output: 0, cacheRead: 0, cacheCreation: 0, partial: 0, models: new Map() });
const emptyModel = (): ModelTokens => ({ ...emptyTokenCounts(), cacheCreation1h: 0, costUsd: 0 });
const emptyKinds = (): Kinds => ({ input: 0, output: 0, cacheRead: 0, cacheCreation: 0 });
const KINDS = ['input', 'output', 'cacheRead', 'cacheCreation'] as const;
const tokensOf = (k: Kinds): number => k.input + k.output + k.cacheRead + k.cacheCreation;

export class UsageLedger {
  readonly #price: (model: string) => Price | undefined;
  readonly #tally = new MessageTally((u, again) => this.#count(u, again));
  readonly #threads = new Map<string, LedgerThread>();
  readonly #reported = new ReportedCounters();
  /** Every thread's tokens per model, summed: how much a result's figure leaves for a correction. */
  readonly #byModel = new Map<string, Kinds>();
  /** The main thread's requests since the last result: the result's turn figures replace their sum. */
  #turn = emptyTurn();
  #partialAfterReport = false;

  constructor(price: (model: string) => Price | undefined) {
    this.#price = price;
  }

  add(u: UsageEvent): void {
    if (u.partial === true && tokensOf(u) > 0) this.#partialAfterReport = true;
    this.#tally.add(u);
  }

  /** The thread is over: its last message counts. */
  threadEnds(thread: string): void {
    this.#tally.flush(thread);
  }

  /**
   * A turn ended (a result, or a segment's end): a later result's figures
   * are for later requests. Its main-thread requests keep what they have:
   * lower bounds, when no result said more.
   */
  turnEnds(): void {
    this.#tally.flush('main');
    this.#turn = emptyTurn();
  }

  /** The agent's own figures: a result's turn brings the main thread up to them; the cumulative ones are kept. */
  reported(ev: EventOf<'reported_usage'>): void {
    if (ev.turn) {
      this.#tally.flush('main');
      this.#closeTurn(ev.turn, ev.byModel);
    }
    if (ev.byModel) this.#partialAfterReport = false;
    this.#reported.add(ev);
  }

  /** Every thread's figures, once the session is over. */
  finish(): LedgerTotals {
    this.#tally.flushAll();
    return { threads: this.#threads, reported: this.#reported.value, partialAfterReport: this.#partialAfterReport };
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

  #total(model: string, k: Kinds): void {
    let sum = this.#byModel.get(model);
    if (!sum) this.#byModel.set(model, (sum = emptyKinds()));
    addKinds(sum, k);
  }

  #count(u: UsageEvent, again: boolean): void {
    const t = this.#thread(u.thread);
    const { model, m } = this.#model(t, modelKey(u.model));
    const usd = requestUsd(u, model === OTHER_MODELS ? undefined : this.#price(model));
    // Added in place: one object per thread and model, not one per request.
    if (!again) m.messages++;
    addKinds(m, u);
    this.#total(model, u);
    m.cacheCreation1h = add(m.cacheCreation1h, u.cacheCreation1h ?? 0);
    m.costUsd = m.costUsd === null || usd === null ? null : add(m.costUsd, usd);
    // A request of no tokens (Claude Code's `<synthetic>` reply to a failed call) is exact, and no request a correction belongs to.
    if (tokensOf(u) === 0) return;
    const partial = u.partial === true && !again ? 1 : 0;
    t.partial += partial;
    if (u.thread !== 'main') return;
    const turn = this.#turn;
    addKinds(turn, u);
    turn.partial += partial;
    turn.models.delete(model);
    turn.models.set(model, u.input + u.cacheRead + u.cacheCreation);
  }

  /**
   * A result's figures for the turn: what they count beyond the turn's
   * requests (the output written after each snapshot) is added to the main
   * thread. Each of the turn's models takes at most what the result's own
   * per-model figures leave it (so a turn that fell back from one model to
   * another splits as Claude Code counted it), the one used last first; each
   * part is priced at that model's last request's band. A turn with no
   * request of its own leaves the figures to the unattributed part. A result
   * that counts less output than the snapshots (not what Claude Code writes)
   * corrects nothing, and the turn's counts stay lower bounds.
   */
  #closeTurn(r: Kinds, byModel: Readonly<Record<string, ModelUsage>> | undefined): void {
    const turn = this.#turn;
    this.#turn = emptyTurn();
    const main = this.#thread('main');
    const models = [...turn.models].reverse();
    if (models.length) {
      const room = byModel ? this.#room(byModel) : undefined;
      const parts = new Map<string, Kinds>(models.map(([model]) => [model, emptyKinds()]));
      for (const k of KINDS) {
        let left = Math.max(0, r[k] - turn[k]);
        for (const [model] of models) {
          if (left === 0) break;
          const give = room ? Math.min(left, room.take(model, k, left)) : left;
          parts.get(model)![k] += give;
          left -= give;
        }
        // More than the per-model figures leave: the last model's, as the result says the main thread wrote it.
        if (left > 0) parts.get(models[0]![0])![k] += left;
      }
      for (const [model, prompt] of models) {
        const extra = parts.get(model)!;
        if (tokensOf(extra) === 0) continue;
        const { m } = this.#model(main, model);
        const price = model === OTHER_MODELS ? undefined : this.#price(model);
        const usd = price ? costOf(extra, bandOf(prompt, price)) : null;
        addKinds(m, extra);
        this.#total(model, extra);
        m.costUsd = m.costUsd === null || usd === null ? null : add(m.costUsd, usd);
      }
    }
    if (r.output >= turn.output) main.partial -= turn.partial;
  }

  /** What each model's reported figures leave beyond what the threads count, by the model's canonical name. */
  #room(byModel: Readonly<Record<string, ModelUsage>>): { take(model: string, k: (typeof KINDS)[number], want: number): number } {
    const left = new Map<string, Kinds>();
    for (const [name, r] of Object.entries(byModel)) {
      const c = canonicalModel(name);
      const cur = left.get(c) ?? emptyKinds();
      addKinds(cur, r);
      left.set(c, cur);
    }
    for (const [model, k] of this.#byModel) {
      const cur = left.get(canonicalModel(model));
      if (cur) for (const kind of KINDS) cur[kind] = Math.max(0, cur[kind] - k[kind]);
    }
    return {
      take(model, k, want) {
        const cur = left.get(canonicalModel(model));
        const give = Math.min(want, cur?.[k] ?? 0);
        if (cur) cur[k] -= give;
        return give;
      },
    };
  }
}

function addKinds(to: Kinds, from: Kinds): void {
  to.input = add(to.input, from.input);
  to.output = add(to.output, from.output);
  to.cacheRead = add(to.cacheRead, from.cacheRead);
  to.cacheCreation = add(to.cacheCreation, from.cacheCreation);
}
