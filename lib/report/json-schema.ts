// The report's JSON Schema, generated from the zod schema composed of the
// analyses' sections.
import { z } from 'zod';
import type { Analysis } from '../analyses/types.js';
import { ANALYSES } from '../analyses/index.js';
import { reportSchemaFor } from './schema.js';

export const JSON_SCHEMA_DRAFT = { target: 'draft-2020-12' } as const;

export function reportJsonSchema(analyses: readonly Analysis[] = ANALYSES): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:report', title: 'agent-eval-stream report', ...z.toJSONSchema(reportSchemaFor(analyses), JSON_SCHEMA_DRAFT) };
}
