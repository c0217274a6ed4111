// A stream-json `result`: how the run ended. Every version writes `subtype`
// and `is_error`, and a success its final answer as the string `result`; newer ones (2.1.x, typed by the Agent SDK's
// SDKResultSuccess/SDKResultError) add `terminal_reason`, `errors`,
// `permission_denials`, and `total_cost_usd` and `modelUsage`, which are
// cumulative over the session and count subagents too (`usage` counts the
// main loop only). Values that are not what they should be are left out.
import type { EventOf } from '../../core/events.js';
import { clip, isObject } from '../../core/records.js';

type Obj = Record<string, unknown>;
type Outcome = NonNullable<EventOf<'turn_end'>['outcome']>;
type ModelTokens = NonNullable<Outcome['byModel']>[string];

/** Errors kept per result: a run that failed in a loop can list thousands. */
const MAX_ERRORS = 20;
const MAX_ERROR_CHARS = 500;

function count(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined;
}

export function resultOutcome(v: Obj): Outcome {
  const out: Outcome = { subtype: typeof v.subtype === 'string' ? v.subtype : undefined, isError: v.is_error === true };
  if (typeof v.result === 'string') out.answer = v.result;
  if (typeof v.terminal_reason === 'string') out.terminalReason = v.terminal_reason;
  if (typeof v.api_error_status === 'number' && Number.isInteger(v.api_error_status)) out.apiErrorStatus = v.api_error_status;
  if (Array.isArray(v.errors)) out.errors = v.errors.filter((e): e is string => typeof e === 'string').slice(0, MAX_ERRORS).map((e) => clip(e, MAX_ERROR_CHARS));
  if (Array.isArray(v.permission_denials)) out.permissionDenials = v.permission_denials.length;
  const cost = count(v.total_cost_usd);
  if (cost !== undefined) out.costUsd = cost;
  if (isObject(v.modelUsage)) {
    // A Map first: a model named `__proto__` is a model like any other.
    const byModel = new Map<string, ModelTokens>();
    for (const [model, u] of Object.entries(v.modelUsage)) {
      if (!isObject(u)) continue;
      byModel.set(model, { input: count(u.inputTokens) ?? 0, output: count(u.outputTokens) ?? 0, cacheRead: count(u.cacheReadInputTokens) ?? 0, cacheCreation: count(u.cacheCreationInputTokens) ?? 0, costUsd: count(u.costUSD) ?? 0 });
    }
    if (byModel.size) out.byModel = Object.fromEntries(byModel);
  }
  return out;
}
