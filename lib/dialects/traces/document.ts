// The reference grader's traces.json, streamed: a multi-GB document is never
// read whole. Three shapes, as the reference grader accepts them:
//   [run, …]                       {"runs": [run, …]}
//   {"tasks": [{"task"|"id": T, "runs": [run, …]}, …]}
// stream-json's parser gives tokens; this walker keeps the path to the
// current value and assembles only run objects (stream-json's Assembler), so
// memory is one run at a time. It needs the path — not `pick` + `streamArray`
// alone — because a task's name may come after its runs: each run goes out as
// soon as it is complete, and the name follows when it is met.
//
// OpenTelemetry span documents go through the same walker (lib/dialects/otel/spans.ts):
//   {"resourceSpans": [{"scopeSpans": [{"spans": [span, …]}]}]}   (OTLP/JSON,
//   also one such object per line)      {"spans": [span, …]}     (SDK dump)
// Spans are assembled with numbers kept as strings: their ids and times are
// 64- and 128-bit integers.
import Assembler from 'stream-json/assembler.js';
import type { PreRecord } from '../../core/records.js';
import type { OtelValue, SpanShape } from '../otel/spans.js';
import { OTEL_MARK, SpanCollector } from '../otel/spans.js';
import type { DocumentWalker, JsonToken } from '../types.js';
import { RecordDocumentWalker, itemsKeyOf } from '../record-document.js';
import { TrialResultPicker, isTrialResult, trialRecord } from '../atif/trial-result.js';

type Frame = { array: true; index: number } | { array: false; key: string | null };

/** What the walker tells the traces dialect, as parsed records' values. */
export type TracesValue =
  | { '#traces': 'run'; run: Record<string, unknown>; path: string; taskIndex: number | null }
  | { '#traces': 'task'; taskIndex: number; task: string; key: 'task' | 'id' }
  | { '#traces': 'task_end'; taskIndex: number }
  | { '#traces': 'not_a_run'; path: string };

export const TRACES_MARK = '#traces';

/** Where the current value sits, as `tasks[0].runs[2]`. */
function pathText(frames: readonly Frame[]): string {
  return (
    frames
      .map((f) => (f.array ? `[${f.index - 1}]` : `.${f.key}`))
      .join('')
      .replace(/^\./, '') || '(root)'
  );
}

export class TracesWalker implements DocumentWalker {
  readonly #file: string;
  #frames: Frame[] = [];
  #asm: Assembler | null = null;
  #asmRole: 'run' | 'record' | SpanShape = 'run';
  #runs = 0;
  #spans: SpanCollector | null = null;
  /** A Gemini chat or an ATIF trajectory: its first key said so, and it walks the rest. */
  #records: RecordDocumentWalker | null = null;
  /** A Harbor trial's result.json (first key `id`): only its few fields are kept. */
  #trial: TrialResultPicker | null = null;

  constructor(file: string) {
    this.#file = file;
  }

  /** Feeds one token; complete runs and task names go to `push`. */
  token(t: JsonToken, push: (r: PreRecord) => void): void {
    if (this.#trial) {
      this.#trial.token(t);
      if (this.#trial.done) {
        const picked = this.#trial.picked;
        this.#trial = null;
        this.#frames = [];
        // Anything else that opens with `id` holds nothing to read: the document says so as one with no run.
        if (isTrialResult(picked)) push({ type: 'record', file: this.#file, line: ++this.#runs, value: trialRecord(picked) });
      }
      return;
    }
    if (this.#records) {
      this.#records.token(t, push, unshared);
      if (this.#records.done) {
        this.#records = null;
        this.#frames = [];
      }
      return;
    }
    if (this.#asm) {
      this.#asm.consume(t as never);
      if (this.#asm.done) {
        // Strings of its own: the tokenizer's are slices of the text it was
        // fed, and one kept in a report (a run's id, a flag's path) would keep
        // its whole 1 MiB read alive — 0.8 GB for a 200 MB document. Copied
        // once here, nothing downstream has to care.
        const value = unshared(this.#asm.current);
        this.#asm = null;
        if (this.#asmRole === 'run') this.#emitRun(value, push);
        else if (this.#asmRole === 'record') push({ type: 'record', file: this.#file, line: ++this.#runs, value: value as Record<string, unknown> });
        else (this.#spans ??= new SpanCollector()).add(value as Record<string, unknown>, this.#asmRole);
      }
      return;
    }
    switch (t.name) {
      case 'keyValue': {
        const top = this.#frames[this.#frames.length - 1];
        if (top && !top.array) {
          if (this.#frames.length === 1 && top.key === null && t.value === 'type') return this.#startRecord(t);
          // Harbor's TrialResult opens with its `id`; no traces document does.
          if (this.#frames.length === 1 && top.key === null && t.value === 'id') {
            this.#trial = new TrialResultPicker('id');
            return;
          }
          const items = this.#frames.length === 1 && top.key === null ? itemsKeyOf(String(t.value)) : undefined;
          if (items !== undefined) {
            this.#records = new RecordDocumentWalker(this.#file, String(t.value), items);
            return;
          }
          top.key = String(t.value);
        }
        return;
      }
      case 'startObject':
      case 'startArray': {
        const role = this.#role();
        if ((role === 'run' || role === 'otlp' || role === 'dump') && t.name === 'startObject') {
          this.#asmRole = role;
          this.#asm = new Assembler(role === 'run' ? undefined : { numberAsString: true });
          this.#asm.consume(t as never);
          return;
        }
        this.#misplaced(role, push);
        this.#frames.push(t.name === 'startArray' ? { array: true, index: 0 } : { array: false, key: null });
        return;
      }
      case 'endObject':
      case 'endArray': {
        const closed = this.#frames.pop();
        // The end of `tasks[i]`: its runs may still be waiting for a name.
        if (closed && !closed.array && this.#frames.length === 2 && this.#isTasks())
          this.#record(push, { '#traces': 'task_end', taskIndex: this.#frames[1]!.array ? (this.#frames[1] as { index: number }).index - 1 : 0 });
        return;
      }
      default: {
        const role = this.#role();
        if (role === 'task-name' && (typeof t.value === 'string' || t.name === 'numberValue')) {
          const top = this.#frames[this.#frames.length - 1] as { key: string | null };
          this.#record(push, { '#traces': 'task', taskIndex: this.#taskIndex(), task: String(unshared(t.value)), key: top.key === 'id' ? 'id' : 'task' });
        } else this.#misplaced(role, push);
      }
    }
  }

  /**
   * A top-level object whose first key is `type` is a record, never a
   * document of runs (the dialects agree: a string `type` is never a
   * traces document): `claude -p --output-format json | jq .` prints its one
   * `result` pretty, and `stream-json | jq .` its records. Each is assembled
   * whole, as a run is, and goes on as the line it was, for the dialects to
   * tell what it is (Claude Code's refuses a lone `result` with its hint).
   */
  #startRecord(key: JsonToken): void {
    this.#frames.pop();
    this.#asmRole = 'record';
    this.#asm = new Assembler();
    this.#asm.consume({ name: 'startObject' } as never);
    this.#asm.consume(key as never);
  }

  /** The document is over: spans wait for it, since a trace's spans may be anywhere in it. */
  end(push: (r: PreRecord) => void): void {
    this.#records?.end(push);
    this.#records = null;
    if (!this.#spans) return;
    for (const trace of this.#spans.traces()) this.#record(push, trace);
    this.#spans = null;
  }

  /** A value where a run or span belongs that is not an object. */
  #misplaced(role: string, push: (r: PreRecord) => void): void {
    if (role === 'run') this.#record(push, { '#traces': 'not_a_run', path: this.#path() });
    else if (role === 'otlp' || role === 'dump') this.#record(push, { [OTEL_MARK]: 'not_a_span', path: this.#path() });
  }

  /** Marks the start of a value in the current container and says what it is. */
  #role(): 'run' | 'task-name' | SpanShape | 'other' {
    const f = this.#frames;
    const top = f[f.length - 1];
    if (top?.array) top.index++;
    const root = f[0];
    if (!root) return 'other';
    const key = (i: number): string | null | undefined => (f[i] && !f[i]!.array ? (f[i] as { key: string | null }).key : undefined);
    // {"spans": [span, …]}
    if (f.length === 2 && key(0) === 'spans' && top?.array) return 'dump';
    // {"resourceSpans": [{"scopeSpans": [{"spans": [span, …]}]}]}
    if (
      f.length === 6 &&
      key(0) === 'resourceSpans' &&
      (key(2) === 'scopeSpans' || key(2) === 'instrumentationLibrarySpans') &&
      key(4) === 'spans' &&
      top?.array
    )
      return 'otlp';
    // [run, …]
    if (root.array) return f.length === 1 ? 'run' : 'other';
    // {"runs": [run, …]}
    if (f.length === 2 && root.key === 'runs' && top?.array) return 'run';
    // {"tasks": [{"task": T, "runs": [run, …]}]}
    if (this.#isTasks()) {
      if (f.length === 3 && !top?.array && (top?.key === 'task' || top?.key === 'id')) return 'task-name';
      if (f.length === 4 && (f[2] as { key: string | null }).key === 'runs' && top?.array) return 'run';
    }
    return 'other';
  }

  #isTasks(): boolean {
    const f = this.#frames;
    return f.length >= 2 && !f[0]!.array && (f[0] as { key: string | null }).key === 'tasks' && f[1]!.array;
  }

  #taskIndex(): number {
    const t = this.#frames[1];
    return t?.array ? t.index - 1 : 0;
  }

  #path(): string {
    return pathText(this.#frames);
  }

  #emitRun(run: unknown, push: (r: PreRecord) => void): void {
    const inTasks = this.#isTasks();
    const value = run as Record<string, unknown>;
    // `claude -p --output-format json --verbose` prints the run's messages as
    // one array of the records stream-json prints a line at a time: each goes
    // to the Claude Code dialect as that line would (its `line` is its index + 1).
    if (this.#frames.length === 1 && isClaudeRecord(value)) {
      push({ type: 'record', file: this.#file, line: ++this.#runs, value });
      return;
    }
    this.#record(push, { '#traces': 'run', run: value, path: this.#path(), taskIndex: inTasks ? this.#taskIndex() : null });
  }

  #record(push: (r: PreRecord) => void, value: TracesValue | OtelValue): void {
    push({ type: 'record', file: this.#file, line: ++this.#runs, value: value as unknown as Record<string, unknown> });
  }
}

/** A record of Claude Code's stream-json: a typed message of a session, never a traces run. */
function isClaudeRecord(v: Record<string, unknown>): boolean {
  return typeof v.type === 'string' && (typeof v.session_id === 'string' || (typeof v.message === 'object' && v.message !== null));
}

/** V8 copies shorter substrings; only longer ones may be slices of their parent. */
const SLICE_MIN = 13;

function ownCopy(s: string): string {
  return s.length < SLICE_MIN ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/**
 * `v` with every string replaced, in place, by a copy of its own (none a
 * slice of a larger string). Iterative: a value may nest thousands deep
 * (bounded later, with a diagnostic, by the normalizer).
 */
function unshared(v: unknown): unknown {
  if (typeof v === 'string') return ownCopy(v);
  if (typeof v !== 'object' || v === null) return v;
  const stack: Array<Record<string, unknown> | unknown[]> = [v as Record<string, unknown>];
  while (stack.length) {
    const c = stack.pop()!;
    const keys = Array.isArray(c) ? null : Object.keys(c);
    const n = keys === null ? (c as unknown[]).length : keys.length;
    for (let i = 0; i < n; i++) {
      const k = keys === null ? i : keys[i]!;
      const x = (c as Record<string | number, unknown>)[k];
      if (typeof x === 'string') (c as Record<string | number, unknown>)[k] = ownCopy(x);
      else if (typeof x === 'object' && x !== null) stack.push(x as Record<string, unknown>);
    }
  }
  return v;
}
