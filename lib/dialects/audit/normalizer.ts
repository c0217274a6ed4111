// Audit JSONL from the reference's hook library — `{ts, event, session_id,
// tool_name, file_path, command}` — and the code-logger shape `{ts, event,
// path, tool}`. One run per session_id, or per file when lines have none.
// Audit logs record neither a call's outcome nor reads, and say so in
// run_start so that rules needing them report "not evaluated".
import type { EventSink, RecordNormalizer } from '../types.js';

type Obj = Record<string, unknown>;

const str = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);

export function isAuditRecord(v: Obj): boolean {
  return typeof v.type !== 'string' && (typeof v.tool_name === 'string' || typeof v.tool === 'string' || typeof v.event === 'string');
}

export class AuditNormalizer implements RecordNormalizer {
  /** Calls so far per run, for step ids; one entry per session in the log. */
  #runs = new Map<string, number>();

  takeEndedByResult(): boolean {
    return false;
  }

  record(v: Obj, line: number, sink: EventSink): void {
    const tool = str(v.tool_name) ?? str(v.tool);
    // SessionStart, Stop, UserPromptSubmit…: no tool, no step.
    if (tool === undefined) return;
    const run = str(v.session_id) ?? sink.file;
    const meta = { run, ts: str(v.ts) };
    let n = this.#runs.get(run);
    if (n === undefined) {
      n = 0;
      sink.emit({ kind: 'run_start', run, observes: { outcomes: false, reads: false } }, 'main', line, meta);
    }
    this.#runs.set(run, ++n);
    const input: Obj = {};
    const file = str(v.file_path) ?? str(v.path);
    if (file !== undefined) input.file_path = file;
    if (str(v.command) !== undefined) input.command = v.command;
    if (str(v.url) !== undefined) input.url = v.url;
    const id = `${run}#${n}`;
    sink.emit({ kind: 'tool_call', id, name: tool, input, messageId: id, index: 0 }, 'main', line, meta);
  }

  end(sink: EventSink): void {
    for (const run of this.#runs.keys()) sink.emit({ kind: 'run_end', run, delivered: null }, 'main', 0, { run });
    this.#runs.clear();
  }
}
