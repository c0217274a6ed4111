// The reference grader's traces.json → canonical events, from the records
// lib/io/document-records.ts streams out of the document. Each
// run is run_start, a tool_call and tool_result per step, and run_end; the
// reference's defaults fill what is missing. In the `tasks` shape a task's
// name may follow its runs: their run_end waits (an id and an outcome each).
// A task is named by `task`, else `id` (the reference's `task or id`): runs
// wait while only an `id` has been seen, since a `task` may still come.
import type { EventSink, RecordNormalizer } from '../types.js';
import type { TracesValue } from './document.js';
import { TRACES_MARK } from './document.js';
import { isObject } from '../../core/records.js';
import { textOf } from '../../core/deep-values.js';

type Obj = Record<string, unknown>;

const idText = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' ? String(x) : undefined);

/** The reference's default task name. */
export const DEFAULT_TRACES_TASK = 'task';
const SCAVENGED_ARGS = ['file_path', 'command', 'path', 'url', 'query'] as const;

interface HeldEnd {
  readonly run: string;
  readonly delivered: boolean;
  readonly line: number;
}

/** A step's arguments: `args`, else the step's own well-known keys (the reference's scavenging). */
export function stepArgs(step: Obj): Obj {
  if (isObject(step.args)) return step.args;
  const out: Obj = {};
  for (const k of SCAVENGED_ARGS) if (step[k] !== undefined) out[k] = step[k];
  return out;
}

export class TracesNormalizer implements RecordNormalizer {
  /** Task names by index; `id` names only until a `task` key names it. */
  #names = new Map<number, { name: string; final: boolean }>();
  #held: HeldEnd[] = [];
  #heldTask: number | null = null;

  takeEndedByResult(): boolean {
    return false;
  }

  record(v: Obj, line: number, sink: EventSink): void {
    if (!(TRACES_MARK in v)) {
      this.#wholeDocument(v, line, sink);
      return;
    }
    const r = v as unknown as TracesValue;
    switch (r['#traces']) {
      case 'run':
        this.#run(r.run, r.path, r.taskIndex, line, sink);
        return;
      case 'task': {
        const final = r.key !== 'id';
        if (!final && this.#names.get(r.taskIndex)?.final) return;
        this.#names.set(r.taskIndex, { name: r.task, final });
        if (final && this.#heldTask === r.taskIndex) this.#release(r.task, sink);
        return;
      }
      case 'task_end':
        if (this.#heldTask === r.taskIndex) this.#release(this.#names.get(r.taskIndex)?.name ?? DEFAULT_TRACES_TASK, sink);
        this.#names.delete(r.taskIndex);
        return;
      case 'not_a_run':
        sink.emit({ kind: 'diagnostic', code: 'trace_not_a_run', message: `${r.path}: a run must be an object; skipped` }, 'main', line, {});
        return;
    }
  }

  end(sink: EventSink): void {
    this.#release(DEFAULT_TRACES_TASK, sink);
  }

  /** A traces document minified onto one line arrives parsed, as one JSONL record. */
  #wholeDocument(v: Obj, line: number, sink: EventSink): void {
    if (Array.isArray(v.runs)) v.runs.forEach((run, i) => this.#each(run, `runs[${i}]`, null, line, sink));
    if (!Array.isArray(v.tasks)) return;
    v.tasks.forEach((t, ti) => {
      const task = isObject(t) ? t : {};
      const name = idText(task.task) ?? idText(task.id);
      if (name !== undefined) this.#names.set(ti, { name, final: true });
      if (Array.isArray(task.runs)) task.runs.forEach((run, i) => this.#each(run, `tasks[${ti}].runs[${i}]`, ti, line, sink));
      this.record({ [TRACES_MARK]: 'task_end', taskIndex: ti }, line, sink);
    });
  }

  #each(run: unknown, path: string, taskIndex: number | null, line: number, sink: EventSink): void {
    if (isObject(run)) this.#run(run, path, taskIndex, line, sink);
    else this.record({ [TRACES_MARK]: 'not_a_run', path }, line, sink);
  }

  #run(run: Obj, path: string, taskIndex: number | null, line: number, sink: EventSink): void {
    const id = idText(run.run_id) ?? idText(run.id) ?? (taskIndex === null ? idText(run.task) : undefined) ?? path;
    const meta = { run: id };
    sink.emit({ kind: 'run_start', run: id, observes: { outcomes: true, reads: true } }, 'main', line, meta);
    const steps = Array.isArray(run.steps) ? run.steps : [];
    let allOk = true;
    steps.forEach((raw, i) => {
      const step = isObject(raw) ? raw : {};
      const ok = step.ok === undefined ? true : Boolean(step.ok);
      allOk &&= ok;
      const callId = `${id}#${i + 1}`;
      const name = idText(step.tool) ?? idText(step.tool_name) ?? '';
      sink.emit({ kind: 'tool_call', id: callId, name, input: stepArgs(step), messageId: callId, index: 0 }, 'main', line, meta);
      sink.emit({ kind: 'tool_result', id: callId, isError: !ok, text: textOf(step.observation), meta: {} }, 'main', line, meta);
    });
    // The reference: `ok`, else delivered when there are steps and all were ok.
    const delivered = run.ok === undefined ? steps.length > 0 && allOk : Boolean(run.ok);
    if (taskIndex === null) {
      sink.emit({ kind: 'run_end', run: id, task: idText(run.task) ?? DEFAULT_TRACES_TASK, delivered }, 'main', line, meta);
      return;
    }
    const name = this.#names.get(taskIndex);
    if (name?.final) {
      sink.emit({ kind: 'run_end', run: id, task: name.name, delivered }, 'main', line, meta);
      return;
    }
    if (this.#heldTask !== taskIndex) this.#release(DEFAULT_TRACES_TASK, sink);
    this.#heldTask = taskIndex;
    this.#held.push({ run: id, delivered, line });
  }

  #release(task: string, sink: EventSink): void {
    for (const h of this.#held) sink.emit({ kind: 'run_end', run: h.run, task, delivered: h.delivered }, 'main', h.line, { run: h.run });
    this.#held = [];
    this.#heldTask = null;
  }
}
