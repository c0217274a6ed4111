// Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`)
// → canonical event bodies. Each line is `{timestamp, type, payload}` of
// one of five types (codex-rs/protocol/src/protocol.rs, RolloutItem):
// `session_meta` (the session's id, cwd, CLI version), `turn_context` (the
// model and cwd of the turn that follows), `response_item` (what went to or
// came from the model: messages, reasoning, tool calls and their outputs,
// paired by `call_id`), `event_msg` (what the UI was told: token counts, a
// turn's start and end, and copies of the messages) and `compacted`.
//
// Codex writes each message twice — as a `response_item` and again as an
// `event_msg` (`user_message`, `agent_message`, `agent_reasoning`) — so the
// content is read from the response items only; the `user_message` event
// says which user item a person typed (the others are instructions and
// environment context Codex injects), and so where a turn ends.
import type { RecordMeta } from '../../core/events.js';
import { asString, isObject } from '../../core/records.js';
import { textOf } from '../../core/deep-values.js';
import type { EventSink } from '../types.js';
import { toolOutput } from './tool-output.js';
import { TokenCounts } from './token-usage.js';

type Obj = Record<string, unknown>;

export const ROLLOUT_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** UI events that say nothing the response items do not (or nothing about the path): read past without a count. */
const QUIET_EVENTS: ReadonlySet<string> = new Set([
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
  'task_started',
  'turn_started',
  'task_complete',
  'turn_complete',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'patch_apply_begin',
  'patch_apply_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'web_search_begin',
  'web_search_end',
  'view_image_tool_call',
  'plan_update',
  'entered_review_mode',
  'exited_review_mode',
  'undo_started',
  'undo_completed',
  'turn_diff',
  'background_event',
  'item_started',
  'item_completed',
]);

/** Response items that hold nothing a path is judged by: an undo point. */
const QUIET_ITEMS: ReadonlySet<string> = new Set(['ghost_snapshot', 'other']);

/** Arguments as Codex writes them: a JSON string of an object; anything else is kept whole under `arguments`. */
export function parseArguments(raw: unknown): Obj {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return isObject(v) ? v : { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

/** The text of a message's content items (`input_text`, `output_text`, …). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let s = '';
  for (const c of content) if (isObject(c) && typeof c.text === 'string') s += c.text;
  return s;
}

/** What one thread's rollout keeps: a child agent's file (read in under its spawn) counts its own tokens and requests. */
class ThreadState {
  readonly tokens = new TokenCounts();
  model: string | undefined;
  /** The request now being answered: its items share a message id, and its usage (the next new token count) names it. */
  request = 1;
  index = 0;
  /** A `compacted` record was read: the `context_compacted` event after it is the same compaction. */
  compacted = false;
}

export class RolloutNormalizer {
  readonly #threads = new Map<string, ThreadState>();

  #state(sink: EventSink): ThreadState {
    const thread = this.#thread(sink);
    let s = this.#threads.get(thread);
    if (!s) this.#threads.set(thread, (s = new ThreadState()));
    return s;
  }

  record(v: Obj, line: number, sink: EventSink): void {
    const p = isObject(v.payload) ? v.payload : {};
    const meta: RecordMeta = { ts: asString(v.timestamp), cwd: asString(p.cwd) };
    switch (v.type) {
      case 'session_meta':
        this.#sessionMeta(p, line, meta, sink);
        return;
      case 'turn_context':
        // The model of the requests that follow (the session started before any was named).
        this.#state(sink).model = asString(p.model) ?? this.#state(sink).model;
        return;
      case 'response_item':
        this.#item(p, line, meta, sink);
        return;
      case 'event_msg':
        this.#event(p, line, meta, sink);
        return;
      case 'compacted':
        this.#state(sink).compacted = true;
        sink.emit({ kind: 'compaction' }, this.#thread(sink), line, meta);
        return;
    }
  }

  #thread(sink: EventSink): string {
    return sink.threadOverride ?? 'main';
  }

  #sessionMeta(p: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const id = asString(p.id);
    if (id !== undefined) sink.setSessionId(id);
    // Codex names no tool catalog in its rollout, and the model only in the turn_context after.
    if (!sink.started) sink.start({ tools: [], version: asString(p.cli_version) }, line, meta);
  }

  #messageId(sink: EventSink): { messageId: string; index: number } {
    const s = this.#state(sink);
    return { messageId: `${sink.file}#request-${s.request}`, index: s.index++ };
  }

  #item(p: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const thread = this.#thread(sink);
    switch (p.type) {
      case 'message': {
        const text = contentText(p.content);
        if (p.role === 'assistant') {
          if (text !== '') sink.emit({ kind: 'assistant_text', messageId: this.#messageId(sink).messageId, text }, thread, line, meta);
        } else if (text.length > 0) sink.emit({ kind: 'context_block', role: 'user', chars: text.length }, thread, line, meta);
        return;
      }
      case 'reasoning': {
        // The summary Codex shows, and the raw text when it keeps it; the encrypted part is opaque.
        const chars = textOf(p.summary).length + textOf(p.content).length;
        if (chars > 0) sink.emit({ kind: 'context_block', role: 'assistant', messageId: this.#messageId(sink).messageId, chars }, thread, line, meta);
        return;
      }
      case 'function_call':
        this.#call(asString(p.call_id) ?? `#${line}`, asString(p.name) ?? '', parseArguments(p.arguments), line, meta, sink);
        return;
      case 'custom_tool_call':
        // A freeform tool (apply_patch's grammar form): its input is the text itself.
        this.#call(asString(p.call_id) ?? `#${line}`, asString(p.name) ?? '', { input: typeof p.input === 'string' ? p.input : '' }, line, meta, sink);
        return;
      case 'local_shell_call': {
        const a = isObject(p.action) ? p.action : {};
        const input: Obj = { command: a.command };
        if (a.working_directory !== undefined) input.workdir = a.working_directory;
        if (a.timeout_ms !== undefined) input.timeout_ms = a.timeout_ms;
        this.#call(asString(p.call_id) ?? asString(p.id) ?? `#${line}`, 'local_shell', input, line, meta, sink);
        return;
      }
      case 'web_search_call': {
        // Run by the API: its call and its result are one item.
        const id = asString(p.id) ?? `#${line}`;
        const a = isObject(p.action) ? p.action : {};
        this.#call(id, 'web_search', a, line, meta, sink);
        sink.emit({ kind: 'tool_result', id, isError: p.status === 'failed', text: '', meta: {} }, thread, line, meta);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const out = toolOutput(p.output);
        sink.emit({ kind: 'tool_result', id: asString(p.call_id) ?? '', isError: out.isError, text: out.text, meta: {} }, thread, line, meta);
        return;
      }
      case 'compaction':
      case 'compaction_summary':
        this.#state(sink).compacted = true;
        sink.emit({ kind: 'compaction' }, thread, line, meta);
        return;
      default:
        if (typeof p.type === 'string' && QUIET_ITEMS.has(p.type)) return;
        sink.unknownType(`response_item/${typeof p.type === 'string' ? p.type : '(no type)'}`, line);
    }
  }

  #call(id: string, name: string, input: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const { messageId, index } = this.#messageId(sink);
    sink.emit({ kind: 'tool_call', id, name, input, messageId, index }, this.#thread(sink), line, meta);
  }

  #event(p: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const thread = this.#thread(sink);
    switch (p.type) {
      case 'token_count': {
        const s = this.#state(sink);
        const u = s.tokens.next(p);
        if (u === undefined) return;
        const messageId = `${sink.file}#request-${s.request}`;
        s.request++;
        s.index = 0;
        if (u.bad.length)
          sink.emit(
            { kind: 'diagnostic', code: 'invalid_token_count', message: `token_count: ${u.bad.join(', ')}: not a token count; read as 0` },
            thread,
            line,
            meta,
          );
        sink.emit(
          {
            kind: 'usage',
            messageId,
            input: u.input,
            output: u.output,
            cacheRead: u.cacheRead,
            cacheCreation: 0,
            ...(s.model ? { model: s.model } : {}),
          },
          thread,
          line,
          meta,
        );
        return;
      }
      case 'user_message':
        // A person's prompt: it ends the turn before it, as in a Claude Code session file.
        if (thread === 'main') sink.emit({ kind: 'turn_end', reason: 'user_prompt' }, 'main', line, meta);
        return;
      case 'context_compacted': {
        const s = this.#state(sink);
        if (!s.compacted) sink.emit({ kind: 'compaction' }, thread, line, meta);
        s.compacted = false;
        return;
      }
      case 'turn_aborted':
        sink.emit(
          { kind: 'diagnostic', code: 'turn_aborted', message: `the turn was stopped${typeof p.reason === 'string' ? ` (${p.reason})` : ''}` },
          thread,
          line,
          meta,
        );
        return;
      case 'error':
      case 'stream_error':
        sink.emit({ kind: 'diagnostic', code: `codex_${p.type}`, message: typeof p.message === 'string' ? p.message : String(p.type) }, thread, line, meta);
        return;
      default:
        if (typeof p.type === 'string' && QUIET_EVENTS.has(p.type)) return;
        sink.unknownType(`event_msg/${typeof p.type === 'string' ? p.type : '(no type)'}`, line);
    }
  }
}
