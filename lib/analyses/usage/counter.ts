// Token usage per session, thread and model, and its cost. Each message
// counts once, with its last usage (lib/core/message-tally.ts; the
// reference's session script summed every line and counted multi-block
// messages twice). A thread is labelled by the kind of agent that ran it:
// the subagent type its Task/Agent call asked for. Each request is priced
// as it is counted (a long prompt may be billed at a higher rate); a model
// without a price is named, never priced at $0.
import type { EventOf } from '../../core/events.js';
import type { StreamItem } from '../../core/items.js';
import { isAnalysisItem } from '../../core/items.js';
import type { Push, StageLogic } from '../../core/stage.js';
import { isDelegation } from '../../core/tools.js';
import { MessageTally } from '../../core/message-tally.js';
import type { PriceTable } from '../../core/prices.js';
import { modelKey, pricer, requestUsd } from '../../core/prices.js';
import type { Price } from '../../core/prices.js';
import type { Cost, ModelTokens, ReportedUsage, ThreadUsage, TokenCounts } from './token-counts.js';
import { add, addModelTokens, addTokenCounts, CostSum, emptyTokenCounts, usageSummary } from './token-counts.js';

export interface UsageOptions {
  readonly prices?: PriceTable;
}

/** Models kept apart per thread; more (hostile input) are counted together. */
const MAX_MODELS = 64;
const OTHER_MODELS = '(other models)';

interface ThreadState {
  agentType: string;
  /** Per model: a Map, so a model named `__proto__` is a model like any other. */
  readonly byModel: Map<string, ModelTokens>;
  firstTs: string | undefined;
  lastTs: string | undefined;
}

const emptyModel = (): ModelTokens => ({ ...emptyTokenCounts(), cacheCreation1h: 0, costUsd: 0 });

/**
 * Events read from a thread's own records whose timestamps bound its wall
 * time: its requests and its tools' results (a thread starts with a request
 * and ends with one or with a result), not every block of every message.
 */
const TIMED: ReadonlySet<string> = new Set(['tool_result', 'usage']);

/** Subagent types are the agent's text: kept short in the report. */
const MAX_TYPE_CHARS = 80;

function agentTypeOf(input: Record<string, unknown>): string {
  const t = input.subagent_type;
  if (typeof t === 'string' && t !== '') return t.slice(0, MAX_TYPE_CHARS);
  // A named Agent call spawns a teammate of an agent team.
  return typeof input.name === 'string' && input.name !== '' ? 'teammate' : '(unspecified)';
}

export class UsageCounter implements StageLogic<StreamItem, StreamItem> {
  readonly #price: (model: string) => Price | undefined;
  readonly #tally = new MessageTally((u, again) => this.#count(u, again));
  /** By thread name (input): a Map, so `__proto__` is a thread like any other. */
  #threads = new Map<string, ThreadState>();
  /** Delegation calls of this session and the agent type each asked for: what their threads are labelled. */
  #delegated = new Map<string, string>();
  /** The session's last result's totals: cumulative, so the last one is the session's. */
  #reported: ReportedUsage | undefined;

  constructor(o: UsageOptions = {}) {
    this.#price = pricer(o.prices ?? new Map());
  }

  step(ev: StreamItem, push: Push<StreamItem>): void {
    push(ev);
    if (isAnalysisItem(ev)) return;
    // A thread's own records only: its opening and closing are stamped by whatever event caused them.
    if (ev.ts !== undefined && TIMED.has(ev.kind)) this.#seen(ev.thread, ev.ts);
    switch (ev.kind) {
      case 'session_start':
        this.#tally.clear();
        this.#threads = new Map();
        this.#delegated = new Map();
        this.#reported = undefined;
        return;
      case 'tool_call':
        if (isDelegation(ev.name)) this.#delegated.set(ev.id, agentTypeOf(ev.input));
        return;
      case 'thread_open':
        this.#thread(ev.thread).agentType = this.#typeOf(ev.thread, ev.spawnedBy);
        return;
      case 'turn_end': {
        const o = ev.outcome;
        // Only a result that states its cost: one without would read as $0.
        if (o?.costUsd !== undefined) this.#reported = { costUsd: o.costUsd, byModel: o.byModel ?? {} };
        return;
      }
      case 'usage':
        this.#tally.add(ev);
        return;
      case 'thread_close':
        this.#tally.flush(ev.thread);
        return;
      case 'session_end':
        this.#tally.flushAll();
        push(this.#summary(ev));
        this.#threads = new Map();
        this.#delegated = new Map();
        this.#reported = undefined;
        return;
      default:
        return;
    }
  }

  #typeOf(thread: string, spawnedBy: string | null): string {
    if (thread === 'main') return 'main';
    const asked = spawnedBy === null ? undefined : this.#delegated.get(spawnedBy);
    if (asked !== undefined) return thread === spawnedBy ? asked : 'workflow';
    return spawnedBy === null ? '(unlinked)' : '(unspecified)';
  }

  #thread(thread: string): ThreadState {
    let t = this.#threads.get(thread);
    if (!t) this.#threads.set(thread, (t = { agentType: thread === 'main' ? 'main' : this.#typeOf(thread, this.#delegated.has(thread) ? thread : null), byModel: new Map(), firstTs: undefined, lastTs: undefined }));
    return t;
  }

  #seen(thread: string, ts: string): void {
    const t = this.#thread(thread);
    t.firstTs ??= ts;
    t.lastTs = ts;
  }

  #count(u: EventOf<'usage'>, again: boolean): void {
    const t = this.#thread(u.thread);
    const named = modelKey(u.model);
    const model = t.byModel.size >= MAX_MODELS && !t.byModel.has(named) ? OTHER_MODELS : named;
    const price = model === OTHER_MODELS ? undefined : this.#price(model);
    const usd = requestUsd(u, price);
    // Added in place: one object per thread and model, not one per request.
    let m = t.byModel.get(model);
    if (!m) t.byModel.set(model, (m = emptyModel()));
    if (!again) m.messages++;
    m.input = add(m.input, u.input);
    m.output = add(m.output, u.output);
    m.cacheRead = add(m.cacheRead, u.cacheRead);
    m.cacheCreation = add(m.cacheCreation, u.cacheCreation);
    m.cacheCreation1h = add(m.cacheCreation1h, u.cacheCreation1h ?? 0);
    m.costUsd = m.costUsd === null || usd === null ? null : add(m.costUsd, usd);
  }

  /** Tokens of some models, and what they cost. */
  #priced(byModel: ReadonlyMap<string, ModelTokens>): { counts: TokenCounts; cost: Cost } {
    let counts = emptyTokenCounts();
    let usd = 0;
    const unpriced: string[] = [];
    for (const [model, t] of byModel) {
      counts = addTokenCounts(counts, t);
      if (t.costUsd === null) unpriced.push(model);
      else usd = add(usd, t.costUsd);
    }
    return { counts, cost: unpriced.length ? { costUsd: usd, unpriced: unpriced.sort() } : { costUsd: usd } };
  }

  #summary(ev: EventOf<'session_end'>) {
    const byThread: Record<string, ThreadUsage> = Object.create(null) as Record<string, ThreadUsage>;
    const all = new Map<string, ModelTokens>();
    let total = emptyTokenCounts();
    const cost = new CostSum();
    for (const [name, t] of this.#threads) {
      const p = this.#priced(t.byModel);
      const wall = t.firstTs !== undefined && t.lastTs !== undefined ? Date.parse(t.lastTs) - Date.parse(t.firstTs) : NaN;
      // Threads that made no request (a thread of tool results only) are not listed.
      if (p.counts.messages > 0) byThread[name] = { ...p.counts, ...p.cost, agentType: t.agentType, ...(Number.isFinite(wall) && wall >= 0 ? { wallMs: wall } : {}) };
      for (const [model, m] of t.byModel) {
        const cur = all.get(model);
        all.set(model, cur ? addModelTokens(cur, m) : m);
      }
      total = addTokenCounts(total, p.counts);
      cost.add(p.cost);
    }
    return usageSummary(ev.session, { total, cost: cost.cost, byThread: { ...byThread }, byModel: Object.fromEntries(all), ...(this.#reported ? { reported: this.#reported } : {}) });
  }
}

