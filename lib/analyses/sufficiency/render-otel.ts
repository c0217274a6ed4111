// Each probe call as an OpenTelemetry evaluation result: the bucket is the
// label, and the score is 1 only when the response was enough on its own
// (the agent moved on) — every other bucket means it had to look again.
import type { Evaluation } from '../types.js';
import { BUCKET_TABLE } from './reaction.js';
import type { SufficiencySection } from './report-section.js';

export const SUFFICIENCY_EVALUATION = 'tool_response_sufficiency';

const MEANING: ReadonlyMap<string, string> = new Map(BUCKET_TABLE.map(([key, , meaning]) => [key, meaning]));

export function* sufficiencyEvaluations(s: SufficiencySection): Generator<Evaluation> {
  for (const c of s.calls) {
    const where = { session: c.session, ...(c.run !== undefined ? { run: c.run } : {}), call: c.id, thread: c.thread };
    const asked = `${s.probe} "${c.query}" returned ${c.returned.length} file${c.returned.length === 1 ? '' : 's'}`;
    if (c.bucket === null) {
      // Counted, not judged: no score, and why not in `error.type`.
      yield { name: SUFFICIENCY_EVALUATION, error: c.reason ?? 'unjudged', explanation: `${asked}; not judged (${c.reason ?? 'unjudged'})${c.next ? `: next ${c.next}` : ''}`, ...where };
      continue;
    }
    yield {
      name: SUFFICIENCY_EVALUATION,
      score: c.bucket === 'sufficient' ? 1 : 0,
      label: c.bucket,
      explanation: `${asked}; next: ${c.next ?? ''} (${MEANING.get(c.bucket) ?? c.bucket})`,
      ...where,
    };
  }
}
