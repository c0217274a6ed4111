// OpenTelemetry GenAI spans as agent runs, for agents not on Claude Code.
// Two shapes: OTLP/JSON (`resourceSpans → scopeSpans → spans`, attributes as
// `[{key, value: {stringValue|intValue|…}}]`, hex ids) and the Python SDK's
// span dump (`{"spans": [...]}`, plain attribute objects, ids and times as
// 64/128-bit decimal integers — read as strings, since JSON.parse would
// round them); ids go out in hex, as trace viewers show them. A tool call is
// a span with `gen_ai.operation.name = execute_tool`; a trace is a run; its
// calls go in start-time order, threaded by parent span. Spans of a trace
// may come in any order and anywhere in the document, so tool spans wait here
// until the document ends: memory is the document's tool calls and one parent
// link per span, never its bytes.
import { isObject } from '../../core/records.js';
import { pruneDeep } from '../../core/deep-values.js';

type Obj = Record<string, unknown>;

export type SpanShape = 'otlp' | 'dump';

export interface OtelCall {
  /** The call id: the span id. */
  readonly id: string;
  readonly name: string;
  readonly input: Obj;
  readonly output: string;
  readonly isError: boolean;
  /** `main`, or the thread of a nested agent. */
  readonly thread: string;
}

export interface OtelThread {
  readonly id: string;
  /** The tool call that ran this agent, when one did. */
  readonly spawnedBy: string | null;
}

/**
 * A model call's tokens (any span but a tool's that carries
 * `gen_ai.usage.*`): `before` is the index of the first call that starts
 * after it, so it is told in its place.
 */
export interface OtelUsage {
  readonly id: string;
  readonly thread: string;
  readonly before: number;
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheCreation: number;
}

/** One trace, ready for the normalizer: its threads and calls in order. */
export interface OtelTrace {
  readonly '#otel': 'trace';
  readonly trace: string;
  /** The agent span the main thread's calls hang from: the run's own span. */
  readonly root?: string;
  readonly threads: OtelThread[];
  readonly calls: OtelCall[];
  readonly usage: OtelUsage[];
  /** Spans of the trace holding a value nested too deep (lib/deep-values.ts): cut at the limit. */
  readonly deepSpans?: number;
}

export interface OtelBadSpan {
  readonly '#otel': 'not_a_span';
  readonly path: string;
}

export type OtelValue = OtelTrace | OtelBadSpan;
export const OTEL_MARK = '#otel';

interface SpanInfo {
  trace: string;
  span: string;
  parent: string | null;
  start: string;
  op: string | undefined;
  attrs: Obj;
  isError: boolean;
}

const text = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' || typeof x === 'bigint' ? String(x) : undefined);

const TRACE_ID_DIGITS = 32;
const SPAN_ID_DIGITS = 16;
const DECIMAL = /^[0-9]+$/;
const HEX = /^(?:0[xX])?([0-9a-fA-F]+)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A trace or span id as trace viewers show it: lowercase hex, zero-padded to
 * 32 digits (a trace) or 16 (a span). The SDK dump writes them as decimal
 * integers (or `0x…` text), OTLP/JSON as hex — or, from a protobuf JSON
 * mapping, as base64 of the id's bytes. Anything else stays as written.
 */
export function hexId(raw: string | undefined, shape: SpanShape, digits: number): string | undefined {
  if (raw === undefined) return undefined;
  const hex = shape === 'dump' && DECIMAL.test(raw) ? BigInt(raw).toString(16) : HEX.exec(raw)?.[1];
  if (hex !== undefined) return hex.toLowerCase().padStart(digits, '0');
  // Base64 of exactly the id's bytes (16 for a trace, 8 for a span).
  if (BASE64.test(raw)) {
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length === digits / 2) return bytes.toString('hex');
  }
  return raw;
}

/** An OTLP AnyValue as a plain value (ints arrive as strings, and stay so). */
export function anyValue(v: unknown): unknown {
  if (!isObject(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return text(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if (isObject(v.arrayValue) && Array.isArray(v.arrayValue.values)) return v.arrayValue.values.map(anyValue);
  return undefined;
}

function otlpSpan(s: Obj): SpanInfo {
  // Keys are the span's: no prototype, so `__proto__` or `constructor` is an attribute like any other.
  const attrs: Obj = Object.create(null) as Obj;
  if (Array.isArray(s.attributes)) for (const a of s.attributes) if (isObject(a) && typeof a.key === 'string') attrs[a.key] = anyValue(a.value);
  const status = isObject(s.status) ? s.status : {};
  return {
    trace: hexId(text(s.traceId), 'otlp', TRACE_ID_DIGITS) ?? '',
    span: hexId(text(s.spanId), 'otlp', SPAN_ID_DIGITS) ?? '',
    parent: hexId(text(s.parentSpanId), 'otlp', SPAN_ID_DIGITS) ?? null,
    start: text(s.startTimeUnixNano) ?? '',
    op: text(attrs['gen_ai.operation.name']),
    attrs,
    // GenAI conventions mark a failed operation with `error.type` (and an error status).
    isError: status.code === 2 || status.code === '2' || status.code === 'STATUS_CODE_ERROR' || attrs['error.type'] !== undefined,
  };
}

function dumpSpan(s: Obj): SpanInfo {
  const ctx = isObject(s.context) ? s.context : {};
  const parent = isObject(s.parent) ? s.parent : null;
  const attrs = isObject(s.attributes) ? s.attributes : {};
  const status = isObject(s.status) ? s.status : {};
  return {
    trace: hexId(text(ctx.trace_id), 'dump', TRACE_ID_DIGITS) ?? '',
    span: hexId(text(ctx.span_id), 'dump', SPAN_ID_DIGITS) ?? '',
    parent: parent ? (hexId(text(parent.span_id), 'dump', SPAN_ID_DIGITS) ?? null) : null,
    start: text(s.start_time) ?? '',
    op: text(attrs['gen_ai.operation.name']),
    attrs,
    isError: String(status.status_code ?? '').toLowerCase() === 'error' || attrs['error.type'] !== undefined,
  };
}

/** The GenAI operations that are one model call (any-agent's spans say `call_llm`). */
const MODEL_CALLS: ReadonlySet<string> = new Set(['chat', 'text_completion', 'generate_content', 'call_llm']);

/** A token count attribute (OTLP ints arrive as text): absent or not a count, undefined. */
function tokens(attrs: Obj, ...keys: string[]): number | undefined {
  for (const k of keys) {
    const x = attrs[k];
    const n = typeof x === 'number' ? x : typeof x === 'string' && DECIMAL.test(x) ? Number(x) : undefined;
    if (n !== undefined && Number.isFinite(n) && n >= 0) return n;
  }
  return undefined;
}

/** Non-negative decimal strings, compared as numbers without converting them. */
export function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function callInput(attrs: Obj): Obj {
  const raw = attrs['gen_ai.tool.call.arguments'] ?? attrs['gen_ai.tool.args'] ?? attrs['input.value'];
  if (isObject(raw)) return raw;
  if (typeof raw === 'string') {
    try {
      const v: unknown = JSON.parse(raw);
      return isObject(v) ? v : { value: v };
    } catch {
      return { value: raw };
    }
  }
  return {};
}

function callOutput(attrs: Obj): string {
  const raw = attrs['gen_ai.tool.call.result'] ?? attrs['gen_ai.output'] ?? attrs['output.value'];
  return raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
}

interface HeldCall {
  readonly info: SpanInfo;
  readonly order: number;
}

export class SpanCollector {
  /** Every span's parent and operation, per trace: enough to thread the calls. */
  readonly #parents = new Map<string, Map<string, { parent: string | null; op: string | undefined }>>();
  readonly #calls = new Map<string, HeldCall[]>();
  readonly #usage = new Map<string, HeldCall[]>();
  readonly #firstStart = new Map<string, { start: string; order: number }>();
  readonly #deep = new Map<string, number>();
  #order = 0;

  add(raw: Obj, shape: SpanShape): void {
    // Bounded before anything recurses into it (anyValue, JSON.stringify).
    const deep = pruneDeep(raw);
    const info = shape === 'otlp' ? otlpSpan(raw) : dumpSpan(raw);
    if (deep) this.#deep.set(info.trace, (this.#deep.get(info.trace) ?? 0) + 1);
    const order = this.#order++;
    let parents = this.#parents.get(info.trace);
    if (!parents) this.#parents.set(info.trace, (parents = new Map()));
    parents.set(info.span, { parent: info.parent, op: info.op });
    const first = this.#firstStart.get(info.trace);
    if (!first || (info.start !== '' && (first.start === '' || compareDecimal(info.start, first.start) < 0))) this.#firstStart.set(info.trace, { start: info.start, order: first?.order ?? order });
    if (info.op !== 'execute_tool') {
      // Only a model call's own tokens: an agent span may carry the sum of its calls'.
      if (info.op === undefined || !MODEL_CALLS.has(info.op)) return;
      if (tokens(info.attrs, 'gen_ai.usage.input_tokens') === undefined && tokens(info.attrs, 'gen_ai.usage.output_tokens') === undefined) return;
      let usage = this.#usage.get(info.trace);
      if (!usage) this.#usage.set(info.trace, (usage = []));
      usage.push({ info, order });
      return;
    }
    let calls = this.#calls.get(info.trace);
    if (!calls) this.#calls.set(info.trace, (calls = []));
    calls.push({ info, order });
  }

  /** Every trace, earliest first, its calls in start order. */
  *traces(): Generator<OtelTrace> {
    const order = [...this.#firstStart.entries()].sort(([, a], [, b]) => compareDecimal(a.start, b.start) || a.order - b.order).map(([t]) => t);
    for (const trace of order) yield this.#trace(trace);
  }

  #trace(trace: string): OtelTrace {
    const parents = this.#parents.get(trace) ?? new Map();
    const byStart = (a: HeldCall, b: HeldCall): number => compareDecimal(a.info.start, b.info.start) || a.order - b.order;
    const held = (this.#calls.get(trace) ?? []).sort(byStart);
    const models = (this.#usage.get(trace) ?? []).sort(byStart);
    const roots = new Set([...parents].filter(([, p]) => p.parent === null || !parents.has(p.parent)).map(([id]) => id));
    // The thread whose agent is the trace's root is `main`; without a root
    // span in the file, the first call's thread is.
    // (A trace of model calls alone: the first model call's agent.)
    const first = held.length ? held : models;
    const mainParent = first.find((c) => c.info.parent === null || roots.has(c.info.parent))?.info.parent ?? first[0]?.info.parent ?? null;
    const threads = new Map<string, OtelThread>();
    const threadOf = (parent: string | null): string => {
      if (parent === mainParent) return 'main';
      const key = parent ?? '';
      const known = threads.get(key);
      if (known) return known.id;
      // A nested agent run by a tool call is that call's subagent.
      let up = parent;
      let spawnedBy: string | null = null;
      for (let guard = 0; up !== null && guard < 64; guard++) {
        const p = parents.get(up);
        if (!p) break;
        if (p.op === 'execute_tool') {
          spawnedBy = up;
          break;
        }
        up = p.parent;
      }
      const t = { id: spawnedBy ?? `span:${key}`, spawnedBy };
      threads.set(key, t);
      return t.id;
    };
    const calls = held.map(({ info }) => ({ id: info.span, name: text(info.attrs['gen_ai.tool.name']) ?? '', input: callInput(info.attrs), output: callOutput(info.attrs), isError: info.isError, thread: threadOf(info.parent) }));
    // Both lists are in start order: one walk places each model call before the first tool call that starts after it.
    let after = 0;
    const usage = models.map(({ info }): OtelUsage => {
      while (after < held.length && compareDecimal(held[after]!.info.start, info.start) <= 0) after++;
      return {
        id: info.span,
        thread: threadOf(info.parent),
        before: after,
        input: tokens(info.attrs, 'gen_ai.usage.input_tokens') ?? 0,
        output: tokens(info.attrs, 'gen_ai.usage.output_tokens') ?? 0,
        cacheRead: tokens(info.attrs, 'gen_ai.usage.cache_read.input_tokens') ?? 0,
        // Renamed in the GenAI conventions: both names are read.
        cacheCreation: tokens(info.attrs, 'gen_ai.usage.cache_write.input_tokens', 'gen_ai.usage.cache_creation.input_tokens') ?? 0,
      };
    });
    this.#parents.delete(trace);
    this.#calls.delete(trace);
    this.#usage.delete(trace);
    const deepSpans = this.#deep.get(trace);
    this.#deep.delete(trace);
    return { '#otel': 'trace', trace, ...(mainParent !== null ? { root: mainParent } : {}), threads: [...threads.values()], calls, usage, ...(deepSpans ? { deepSpans } : {}) };
  }
}
