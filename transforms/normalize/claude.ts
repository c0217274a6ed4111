// Claude Code stream-json (and the user/assistant lines of session files) →
// canonical event bodies. Facts from spec/formats.md: one content block per
// `assistant` line, blocks of one API message share `message.id` and repeat
// its usage; `tool_result.content` is a string or an array of blocks; only
// `is_error: true` means failure; `result` closes a `claude -p` invocation.
import type { EventBody, RecordMeta } from '../../lib/events.js';

/** Where a normalizer sends what it decides; the stage stamps the envelope. */
export interface EventSink {
  readonly started: boolean;
  /** The file being read (a path as given, or `-`). */
  readonly file: string;
  start(body: { tools: string[]; model?: string; version?: string }, line: number, meta: RecordMeta): void;
  /** `body` must be a fresh object: it is stamped with the envelope in place. */
  emit(body: EventBody, thread: string, line: number, meta: RecordMeta): void;
  setSessionId(id: string): void;
  /** A record type nobody told us about: skipped and counted. */
  unknownType(type: string, line: number): void;
}

/** Line types that carry no messages: skipped without a word. */
export const SILENT_TYPES: ReadonlySet<string> = new Set([
  'stream_event',
  'queue-operation',
  'summary',
  'attachment',
  'progress',
  'file-history-snapshot',
  'permission-mode',
  'last-prompt',
  'rate_limit_event',
  'command_lifecycle',
  'control_request',
  'control_response',
  'control_cancel_request',
  'keep_alive',
]);

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function str(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

function num(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : 0;
}

/**
 * The reference's flattening of a tool result: a string as is; an array joins
 * each part's `text` (or the part itself when a string, else its JSON) with
 * newlines, so a section that starts a later block still starts a line.
 */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return JSON.stringify(content);
  if (content.length === 1) return partText(content[0]);
  return content.map(partText).join('\n');
}

function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (isObj(p) && typeof p.text === 'string') return p.text;
  return JSON.stringify(p) ?? '';
}

/** Inline sidechain lines of old session files, until they are linked to their Task call. */
export const SIDECHAIN_THREAD = 'sidechain';

export function threadOf(v: Obj): string {
  const p = v.parent_tool_use_id;
  if (typeof p === 'string' && p !== '') return p;
  // A subagent's line in a session file: never merged into the main thread.
  return v.isSidechain === true ? SIDECHAIN_THREAD : 'main';
}

export function metaOf(v: Obj): RecordMeta {
  return { uuid: str(v.uuid), ts: str(v.timestamp), cwd: str(v.cwd) };
}

export function sessionIdOf(v: Obj): string | undefined {
  return str(v.session_id) ?? str(v.sessionId);
}

export class ClaudeNormalizer {
  // Position of the next block of the current message, per thread; an entry
  // is dropped when the thread's spawning call returns, keeping this bounded
  // by open threads.
  #blocks = new Map<string, { id: string; n: number }>();
  #usage = new Map<string, string>();
  #catalog = new Set<string>();
  #endedByResult = false;
  #sidechainOpen = false;

  /** True when the last turn-closing record of the segment was a `result`; resets. */
  takeEndedByResult(): boolean {
    const r = this.#endedByResult;
    this.#endedByResult = false;
    return r;
  }

  record(v: Obj, line: number, sink: EventSink): void {
    const id = sessionIdOf(v);
    if (id !== undefined) sink.setSessionId(id);
    const meta = metaOf(v);
    const type = v.type;
    if (type === 'system' && v.subtype === 'init') {
      this.#init(v, line, meta, sink);
      return;
    }
    if (v.isSidechain === true && !this.#sidechainOpen && threadOf(v) === SIDECHAIN_THREAD && (type === 'assistant' || type === 'user')) {
      this.#sidechainOpen = true;
      sink.emit({ kind: 'thread_open', spawnedBy: null, threadKind: 'sidechain' }, SIDECHAIN_THREAD, line, meta);
    }
    switch (type) {
      case 'assistant':
        this.#endedByResult = false;
        this.#assistant(v, line, meta, sink);
        return;
      case 'user':
        this.#endedByResult = false;
        this.#user(v, line, meta, sink);
        return;
      case 'result':
        this.#blocks.clear();
        this.#usage.clear();
        this.#endedByResult = true;
        sink.emit({ kind: 'turn_end', reason: 'result', outcome: { subtype: str(v.subtype), isError: v.is_error === true } }, 'main', line, meta);
        return;
      case 'system':
        this.#system(v, line, meta, sink);
        return;
      default:
        if (typeof type === 'string' && SILENT_TYPES.has(type)) return;
        sink.unknownType(typeof type === 'string' ? type : '(no type)', line);
    }
  }

  #init(v: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const tools = Array.isArray(v.tools) ? v.tools.filter((t): t is string => typeof t === 'string') : [];
    if (!sink.started) {
      for (const t of tools) this.#catalog.add(t);
      sink.start({ tools, model: str(v.model), version: str(v.claude_code_version) }, line, meta);
      return;
    }
    const added = tools.filter((t) => !this.#catalog.has(t));
    for (const t of added) this.#catalog.add(t);
    // A later init (a resumed segment, or one after hook lines) still says which model ran.
    sink.emit({ kind: 'catalog_add', tools: added, origin: 'init', model: str(v.model), version: str(v.claude_code_version) }, 'main', line, meta);
  }

  #system(v: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    if (v.subtype !== 'compact_boundary' && v.subtype !== 'compaction') return;
    const m = isObj(v.compact_metadata) ? v.compact_metadata : isObj(v.compactMetadata) ? v.compactMetadata : {};
    const pre = m.pre_tokens ?? m.preTokens;
    sink.emit({ kind: 'compaction', trigger: str(m.trigger), preTokens: typeof pre === 'number' ? pre : undefined }, threadOf(v), line, meta);
  }

  #assistant(v: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const msg = v.message;
    if (!isObj(msg) || !Array.isArray(msg.content)) return;
    const thread = threadOf(v);
    const content = msg.content as unknown[];
    const realId = str(msg.id);
    for (let k = 0; k < content.length; k++) {
      // Without an id every block is its own message, as in the reference.
      const messageId = realId ?? `#${line}.${k}`;
      const index = this.#position(thread, messageId);
      const b = content[k];
      if (!isObj(b)) continue;
      if (b.type === 'tool_use') {
        const callId = str(b.id) ?? `#${line}.${k}`;
        const name = str(b.name) ?? '';
        const input = isObj(b.input) ? b.input : {};
        sink.emit({ kind: 'tool_call', id: callId, name, input, messageId, index }, thread, line, meta);
      } else if (b.type === 'text' && typeof b.text === 'string' && b.text !== '') {
        sink.emit({ kind: 'assistant_text', messageId, text: b.text }, thread, line, meta);
      }
    }
    if (realId !== undefined && isObj(msg.usage)) this.#emitUsage(thread, realId, msg.usage, line, meta, sink);
  }

  #position(thread: string, messageId: string): number {
    const cur = this.#blocks.get(thread);
    if (cur && cur.id === messageId) return cur.n++;
    this.#blocks.set(thread, { id: messageId, n: 1 });
    return 0;
  }

  #emitUsage(thread: string, messageId: string, u: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const input = num(u.input_tokens);
    const output = num(u.output_tokens);
    const cacheRead = num(u.cache_read_input_tokens);
    const cacheCreation = num(u.cache_creation_input_tokens);
    // Claude Code repeats a message's usage on every block: emit only changes.
    const key = `${messageId}|${input}|${output}|${cacheRead}|${cacheCreation}`;
    if (this.#usage.get(thread) === key) return;
    this.#usage.set(thread, key);
    sink.emit({ kind: 'usage', messageId, input, output, cacheRead, cacheCreation }, thread, line, meta);
  }

  #user(v: Obj, line: number, meta: RecordMeta, sink: EventSink): void {
    const msg = v.message;
    if (!isObj(msg) || !Array.isArray(msg.content)) return;
    const thread = threadOf(v);
    const results = (msg.content as unknown[]).filter((b): b is Obj => isObj(b) && b.type === 'tool_result');
    // The structured result (`tool_use_result` in stream-json, `toolUseResult`
    // in session files) belongs to the line, so only to a lone tool_result.
    const structured = results.length === 1 ? (v.tool_use_result ?? v.toolUseResult) : undefined;
    for (const b of results) {
      const id = str(b.tool_use_id) ?? '';
      this.#blocks.delete(id);
      this.#usage.delete(id);
      sink.emit({ kind: 'tool_result', id, isError: b.is_error === true, text: flattenContent(b.content), meta: resultMeta(structured) }, thread, line, meta);
    }
  }
}

function resultMeta(structured: unknown): { writeType?: 'create' | 'update'; agentId?: string } {
  if (!isObj(structured)) return {};
  const out: { writeType?: 'create' | 'update'; agentId?: string } = {};
  if (structured.type === 'create' || structured.type === 'update') out.writeType = structured.type;
  if (typeof structured.agentId === 'string') out.agentId = structured.agentId;
  return out;
}
