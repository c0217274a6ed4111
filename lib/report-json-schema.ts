import { z } from 'zod';
import { reportSchema } from './report.js';

/** The report's JSON Schema, generated from its zod schema. */
export function reportJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:report', title: 'agent-eval-stream report', ...z.toJSONSchema(reportSchema, { target: 'draft-2020-12' }) };
}
