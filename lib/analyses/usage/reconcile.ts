// A session's totals, agreeing with what the agent reported. Claude Code's
// `modelUsage` (a `result`, a session file's `cost-state`) counts every
// request of the process per model: subagents' whole output, which the
// stream gives only as snapshots, and its own requests no transcript shows.
// So per model and kind of token a session's figure is the larger of the
// two, and what the report counts beyond the threads is unattributed:
// priced at the table's base rates, its cache writes at the 5-minute rate
// (`modelUsage` does not split them by lifetime; the API's default is 5
// minutes).
import { canonicalModel, costOf } from '../../core/prices.js';
import type { Price } from '../../core/prices.js';
import type { AtTable, ModelTokens, ReportedUsage, SessionUsage, ThreadUsage, UnattributedTokens } from './token-counts.js';
import { add, addTokenCounts, CostSum, emptyTokenCounts } from './token-counts.js';

/**
 * `reported` with each model under the transcript's name for it, when the
 * transcript names it otherwise (Claude Code's `modelUsage` says
 * `claude-haiku-4-5` of what its messages call `claude-haiku-4-5-20251001`);
 * two names of one model are added together.
 */
export function inTranscriptNames(reported: ReportedUsage, transcript: ReadonlyMap<string, ModelTokens>): ReportedUsage {
  const byCanonical = new Map<string, string>();
  for (const model of transcript.keys()) if (!byCanonical.has(canonicalModel(model))) byCanonical.set(canonicalModel(model), model);
  const byModel = new Map<string, ReportedUsage['byModel'][string]>();
  for (const [model, r] of Object.entries(reported.byModel)) {
    const name = transcript.has(model) ? model : (byCanonical.get(canonicalModel(model)) ?? model);
    const cur = byModel.get(name);
    byModel.set(name, cur ? { input: add(cur.input, r.input), output: add(cur.output, r.output), cacheRead: add(cur.cacheRead, r.cacheRead), cacheCreation: add(cur.cacheCreation, r.cacheCreation), costUsd: add(cur.costUsd, r.costUsd) } : r);
  }
  return { costUsd: reported.costUsd, byModel: Object.fromEntries(byModel) };
}

export interface Reconciled {
  /** Per model, the session's whole. */
  readonly byModel: Map<string, ModelTokens>;
  /** Per model, what the report counts beyond the threads (only models with some). */
  readonly unattributed: Map<string, UnattributedTokens>;
  /** The report gave per-model figures: the totals are the agent's own. */
  readonly fromReport: boolean;
}

const KINDS = ['input', 'output', 'cacheRead', 'cacheCreation'] as const;

/** The session's per-model figures: the threads' (`transcript`), raised to what `reported` counts. */
export function reconcile(transcript: ReadonlyMap<string, ModelTokens>, reported: ReportedUsage | undefined, price: (model: string) => Price | undefined): Reconciled {
  const byModel = new Map<string, ModelTokens>();
  for (const [model, m] of transcript) byModel.set(model, { ...m });
  const unattributed = new Map<string, UnattributedTokens>();
  const models = Object.entries(reported?.byModel ?? {});
  for (const [model, r] of models) {
    const cur = byModel.get(model) ?? { ...emptyTokenCounts(), cacheCreation1h: 0, costUsd: 0 };
    const extra: UnattributedTokens = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0, costUsd: 0 };
    for (const k of KINDS) extra[k] = Math.max(0, r[k] - cur[k]);
    if (!KINDS.some((k) => extra[k] > 0)) {
      if (!byModel.has(model)) byModel.set(model, cur);
      continue;
    }
    const p = price(model);
    extra.costUsd = p ? costOf(extra, p) : null;
    unattributed.set(model, extra);
    byModel.set(model, {
      messages: cur.messages,
      input: add(cur.input, extra.input),
      output: add(cur.output, extra.output),
      cacheRead: add(cur.cacheRead, extra.cacheRead),
      cacheCreation: add(cur.cacheCreation, extra.cacheCreation),
      cacheCreation1h: cur.cacheCreation1h,
      costUsd: cur.costUsd === null || extra.costUsd === null ? null : add(cur.costUsd, extra.costUsd),
    });
  }
  return { byModel, unattributed, fromReport: models.length > 0 };
}

/**
 * A session's usage from its threads' figures (`transcript`, per model) and
 * what it reported: totals per model, their cost, and whether they are
 * exact — the agent's own per-model figures, or every thread's counts final
 * (`threadsExact`).
 */
export function sessionUsage(transcript: ReadonlyMap<string, ModelTokens>, byThread: Record<string, ThreadUsage>, asReported: ReportedUsage | undefined, price: (model: string) => Price | undefined, threadsExact: boolean): SessionUsage {
  const reported = asReported && inTranscriptNames(asReported, transcript);
  const r = reconcile(transcript, reported, price);
  let total = emptyTokenCounts();
  const cost = new CostSum();
  for (const [model, m] of r.byModel) {
    total = addTokenCounts(total, m);
    cost.addModel(model, m.costUsd);
  }
  const atTable = reported && r.fromReport ? reportedAtTable(reported, transcript, price) : undefined;
  return {
    total,
    cost: cost.cost,
    exact: r.fromReport || threadsExact,
    byThread,
    byModel: Object.fromEntries(r.byModel),
    ...(r.unattributed.size ? { unattributed: Object.fromEntries(r.unattributed) } : {}),
    ...(reported ? { reported } : {}),
    ...(atTable ? { reportedAtTable: atTable } : {}),
  };
}

/**
 * What the agent's own token counts cost at the price table, per model
 * (null: no price): set beside its own cost, it shows whether the table's
 * price is the one it charged (cost-check.ts). Its cache writes are split
 * by lifetime as the transcript's were, as far as they go.
 */
function reportedAtTable(reported: ReportedUsage, transcript: ReadonlyMap<string, ModelTokens>, price: (model: string) => Price | undefined): Record<string, AtTable> {
  const out = new Map<string, AtTable>();
  for (const [model, r] of Object.entries(reported.byModel)) {
    const p = price(model);
    out.set(model, p ? { costUsd: costOf({ ...r, cacheCreation1h: Math.min(transcript.get(model)?.cacheCreation1h ?? 0, r.cacheCreation) }, p), input: p.input, output: p.output, ...(p.source !== undefined ? { source: p.source } : {}) } : { costUsd: null });
  }
  return Object.fromEntries(out);
}
