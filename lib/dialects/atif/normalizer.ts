// ATIF trajectories (Harbor's `trajectory.json`, the Agent Trajectory
// Interchange Format of Harbor's RFC 0001, v1.0–v1.6) → canonical event
// bodies. The document is streamed by lib/dialects/record-document.ts: its
// root fields (`schema_version`, `session_id`, `agent`), each step, and
// the fields after the steps (`final_metrics`). A step is `system` (the
// prompt), `user` or `agent`: an agent step holds the model's message, its
// reasoning, its `tool_calls` (`tool_call_id`, `function_name`,
// `arguments`), an `observation` whose `results` name the call they answer
// (`source_call_id`), and the request's `metrics` (`prompt_tokens`
// including `cached_tokens`, `completion_tokens`).
//
// A trajectory converted from Claude Code splits one response into a step
// per content block and repeats the response's metrics on each (and its
// `final_metrics` sum the repeats): an agent step whose metrics equal the
// one before it, with no other step between, is the same response, and
// its usage is counted once.
//
// A Harbor trial's result (lib/dialects/atif/trial-result.ts) comes before
// its trajectory, read from the trial's result.json: the trajectory is then
// the trial's run, named by the trial and ended with its reward. A trial
// read without a trajectory (an agent that writes none) is a run with no
// steps, said so.
import type { RecordMeta } from '../../core/events.js';
import { asString, excerpt, isObject } from '../../core/records.js';
import { textOf } from '../../core/deep-values.js';
import { tokenCount } from '../claude/token-count.js';
import { DOCUMENT_TAIL } from '../record-document.js';
import type { EventSink, RecordNormalizer } from '../types.js';
import type { TrialResult } from './trial-result.js';
import { TRIAL_MARK, isTrialRecord } from './trial-result.js';
import type { TrialOutcome } from './trial-outcome.js';
import { trialOutcome } from './trial-outcome.js';

type Obj = Record<string, unknown>;

export function isAtifHeader(v: Obj): boolean {
  return typeof v.schema_version === 'string' && v.schema_version.startsWith('ATIF');
}

/** A trajectory's first record, or a Harbor trial's result read before it. */
export function isAtifRecord(v: Obj): boolean {
  return isAtifHeader(v) || isTrialRecord(v);
}

/** A result's content: a string, or (v1.6) content parts, by their text. */
function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return c === undefined || c === null ? '' : textOf(c);
}

export class AtifNormalizer implements RecordNormalizer {
  #model: string | undefined;
  #session = '-';
  #response = 0;
  /** The metrics of the last agent step, as a key: a step that repeats them is the same response. */
  #lastMetrics: string | undefined;
  #steps = 0;
  #sawTrajectory = false;
  /** The Harbor trial this trajectory is the run of, once its result was read. */
  #trial: { outcome: TrialOutcome; id?: string; model?: string; version?: string; line: number; open?: boolean } | undefined;

  takeEndedByResult(): boolean {
    return false;
  }

  record(v: Obj, line: number, sink: EventSink): void {
    if (isTrialRecord(v)) {
      this.#trialStart(v[TRIAL_MARK] as TrialResult, line);
      return;
    }
    if (isAtifHeader(v)) {
      this.#header(v, line, sink);
      // A whole trajectory on one line: its steps are here.
      if (Array.isArray(v.steps)) for (const s of v.steps) if (isObject(s)) this.#step(s, line, sink);
      return;
    }
    if (v[DOCUMENT_TAIL] === true) return;
    if (typeof v.source === 'string' && ('step_id' in v || 'message' in v)) {
      this.#step(v, line, sink);
      return;
    }
    sink.unknownType(typeof v.source === 'string' ? `step/${v.source}` : '(no step)', line);
  }

  /** Held until the trajectory's header has started the session (its model is the session's). */
  #trialStart(t: TrialResult, line: number): void {
    // A second trial's result in one session (two result.json named for it): the first decides.
    this.#trial ??= { outcome: trialOutcome(t), id: t.id, model: t.model, version: t.agent_version, line };
  }

  #trialRun(sink: EventSink): void {
    const trial = this.#trial;
    if (!trial || trial.open) return;
    trial.open = true;
    const { run, note } = trial.outcome;
    sink.emit({ kind: 'run_start', run, observes: { outcomes: true, reads: true } }, 'main', trial.line, { run });
    if (note) sink.emit({ kind: 'diagnostic', code: 'trial_reward_unread', message: `trial ${excerpt(run, 80)}: ${note}` }, 'main', trial.line, { run });
  }

  end(sink: EventSink): void {
    const trial = this.#trial;
    if (!trial) return;
    const { run, task, reward, delivered, infra } = trial.outcome;
    if (!this.#sawTrajectory) {
      // No trajectory was read with it: the run is the trial's, with no steps.
      if (trial.id !== undefined) sink.setSessionId(trial.id);
      if (!sink.started) sink.start({ tools: [], model: trial.model, version: trial.version }, trial.line, {});
      this.#trialRun(sink);
      sink.emit(
        { kind: 'diagnostic', code: 'trial_without_trajectory', message: `trial ${excerpt(run, 80)} has no agent/trajectory.json: its run has no steps` },
        'main',
        trial.line,
        { run },
      );
    }
    sink.emit(
      { kind: 'run_end', run, task, delivered, ...(reward !== undefined ? { reward } : {}), ...(infra !== undefined ? { infra } : {}) },
      'main',
      trial.line,
      { run },
    );
  }

  #header(v: Obj, line: number, sink: EventSink): void {
    this.#sawTrajectory = true;
    const id = asString(v.session_id);
    if (id !== undefined) {
      this.#session = id;
      sink.setSessionId(id);
    }
    const agent = isObject(v.agent) ? v.agent : {};
    this.#model = asString(agent.model_name);
    if (!sink.started) sink.start({ tools: [], model: this.#model, version: asString(agent.version) }, line, {});
    this.#trialRun(sink);
  }

  #step(s: Obj, line: number, sink: EventSink): void {
    this.#steps++;
    const meta: RecordMeta = { ts: asString(s.timestamp), ...(this.#trial ? { run: this.#trial.outcome.run } : {}) };
    const message = typeof s.message === 'string' ? s.message : contentText(s.message);
    if (s.source !== 'agent') {
      this.#lastMetrics = undefined;
      if (message.length > 0) sink.emit({ kind: 'context_block', role: 'user', chars: message.length }, 'main', line, meta);
      if (s.source === 'user') sink.emit({ kind: 'turn_end', reason: 'user_prompt' }, 'main', line, meta);
      this.#results(s, line, meta, sink);
      return;
    }
    const metrics = isObject(s.metrics) ? s.metrics : undefined;
    const key = metrics ? JSON.stringify([metrics.prompt_tokens, metrics.completion_tokens, metrics.cached_tokens]) : undefined;
    const same = key !== undefined && key === this.#lastMetrics;
    if (!same) this.#response++;
    this.#lastMetrics = key;
    const messageId = `${this.#session}#response-${this.#response}`;
    const reasoning = typeof s.reasoning_content === 'string' ? s.reasoning_content.length : 0;
    if (reasoning > 0) sink.emit({ kind: 'context_block', role: 'assistant', messageId, chars: reasoning }, 'main', line, meta);
    if (message !== '') sink.emit({ kind: 'assistant_text', messageId, text: message }, 'main', line, meta);
    const calls = Array.isArray(s.tool_calls) ? s.tool_calls.filter(isObject) : [];
    calls.forEach((c, index) => {
      const id = asString(c.tool_call_id) ?? `#${line}.${index}`;
      sink.emit(
        { kind: 'tool_call', id, name: asString(c.function_name) ?? '', input: isObject(c.arguments) ? c.arguments : {}, messageId, index },
        'main',
        line,
        meta,
      );
    });
    this.#results(s, line, meta, sink);
    if (metrics && !same) this.#usage(metrics, messageId, asString(s.model_name) ?? this.#model, line, meta, sink);
  }

  #results(s: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const obs = isObject(s.observation) ? s.observation : undefined;
    const results = obs && Array.isArray(obs.results) ? obs.results.filter(isObject) : [];
    for (const r of results) {
      const id = asString(r.source_call_id);
      // A result of no call (a system operation, an action without a tool): context only.
      if (id === undefined) {
        const chars = contentText(r.content).length;
        if (chars > 0) sink.emit({ kind: 'context_block', role: 'user', chars }, 'main', line, meta);
        continue;
      }
      // ATIF has no error flag; writers that keep one put it beside the content (`is_error`) or in `extra`.
      const isError = r.is_error === true || (isObject(r.extra) && r.extra.is_error === true);
      sink.emit({ kind: 'tool_result', id, isError, text: contentText(r.content), meta: {} }, 'main', line, meta);
    }
  }

  #usage(m: Obj, messageId: string, model: string | undefined, line: number, meta: RecordMeta, sink: EventSink): void {
    const bad: string[] = [];
    const prompt = tokenCount(m, 'prompt_tokens', bad);
    const cached = Math.min(tokenCount(m, 'cached_tokens', bad), prompt);
    const output = tokenCount(m, 'completion_tokens', bad);
    if (bad.length)
      sink.emit(
        { kind: 'diagnostic', code: 'invalid_token_count', message: `step metrics: ${excerpt(bad.join(', '), 120)}: not a token count; read as 0` },
        'main',
        line,
        meta,
      );
    sink.emit(
      { kind: 'usage', messageId, input: prompt - cached, output, cacheRead: cached, cacheCreation: 0, ...(model ? { model } : {}) },
      'main',
      line,
      meta,
    );
  }
}
