// The report object from its parts: keys in the documented order (envelope,
// then each section in analysis order), and the exit code computed from the
// report itself, so a report and its exit code can never disagree.
import type { Analysis } from '../analyses/types.js';
import type { InputErrorItem } from '../core/input-error.js';
import { exitCodeFor } from '../core/exit-code.js';
import { byCodeUnit } from '../core/canonical-json.js';
import { SCHEMA_VERSION } from './schema.js';
import type { Report, ShardInfo } from './schema.js';

export interface EnvelopeParts {
  sessions: string[];
  duplicates: Record<string, number>;
  diagnostics: Report['diagnostics'];
  inputErrors: InputErrorItem[];
  warnings: string[];
  shard?: ShardInfo;
}

function sortedRecord<V>(r: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => byCodeUnit(a, b)));
}

export function assemble(p: EnvelopeParts, sections: ReadonlyArray<{ analysis: Analysis; section: unknown }>): Report {
  const r: Record<string, unknown> = { schemaVersion: SCHEMA_VERSION, sessions: p.sessions, duplicateSessions: sortedRecord(p.duplicates) };
  let gateFailed = false;
  let problems = 0;
  for (const { analysis, section } of sections) {
    r[analysis.key] = section;
    const gate = analysis.gate?.(section);
    if (gate) {
      gateFailed ||= gate.failed;
      problems += gate.problems.length;
    }
  }
  r.diagnostics = p.diagnostics;
  r.inputErrors = p.inputErrors;
  r.warnings = p.warnings;
  if (p.shard) r.shard = p.shard;
  // A shard that selected no session is an empty part of a run, not a run that graded nothing: the merge decides that.
  if (p.shard && p.sessions.length === 0) problems = 0;
  // A shard stopped before it read all its sessions must not pass as done: an engine would not run it again.
  if (p.shard && !p.shard.complete) problems++;
  r.exitCode = exitCodeFor({ inputErrors: p.inputErrors.length + problems, gateFailed });
  return r as Report;
}
