import { z } from 'zod';
import { reportSchema } from './report.js';
import { graphSchema } from '../analyses/graph/document.js';
import { graphReportSchema } from '../analyses/graph/report.js';

const draft = { target: 'draft-2020-12' } as const;

/** The report's JSON Schema, generated from its zod schema. */
export function reportJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:report', title: 'agent-eval-stream report', ...z.toJSONSchema(reportSchema, draft) };
}

/** graph.json's JSON Schema: the committed action graph. */
export function graphJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:graph', title: 'agent-eval-stream action graph (graph.json)', ...z.toJSONSchema(graphSchema, draft) };
}

/** The JSON the graph sub-commands print. */
export function graphReportJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:graph-report', title: 'agent-eval-stream graph report', ...z.toJSONSchema(graphReportSchema, draft) };
}

/** Every published schema by its file name under schema/. */
export const SCHEMA_FILES: Record<string, () => Record<string, unknown>> = {
  'report.schema.json': reportJsonSchema,
  'graph.schema.json': graphJsonSchema,
  'graph-report.schema.json': graphReportJsonSchema,
};
