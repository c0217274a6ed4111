// line records → parsed JSON objects; a line that is not a JSON object becomes
// a diagnostic and the stream goes on. Anything that is not a line record
// (boundaries, diagnostics) passes through, so any splitter can feed it.
import type { Push, StageLogic } from './stage.js';
import type { LineRecord, ParsedRecord, PreRecord, RawDiagnostic } from './records.js';
import { excerpt, rawDiagnostic } from './records.js';

export function parseLine(rec: LineRecord): ParsedRecord | RawDiagnostic {
  let value: unknown;
  try {
    value = JSON.parse(rec.text);
  } catch (err) {
    return rawDiagnostic('line_not_json', rec.file, rec.line, `not JSON (${(err as Error).message}): ${excerpt(rec.text)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return rawDiagnostic('line_not_object', rec.file, rec.line, `JSON but not an object: ${excerpt(rec.text)}`);
  }
  return { type: 'record', file: rec.file, line: rec.line, value: value as Record<string, unknown> };
}

export const parseLogic: StageLogic<PreRecord, PreRecord> = {
  step(item: PreRecord, push: Push<PreRecord>) {
    push(item.type === 'line' ? parseLine(item) : item);
  },
};
