// The graph's published JSON Schemas: graph.json, and what its sub-commands print.
import { z } from 'zod';
import { graphSchema } from './document.js';
import { graphReportSchema } from './report.js';

const draft = { target: 'draft-2020-12' } as const;

/** graph.json's JSON Schema: the committed action graph. */
export function graphJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:graph', title: 'agent-eval-stream action graph (graph.json)', ...z.toJSONSchema(graphSchema, draft) };
}

/** The JSON the graph sub-commands print. */
export function graphReportJsonSchema(): Record<string, unknown> {
  return { $id: 'urn:agent-eval-stream:graph-report', title: 'agent-eval-stream graph report', ...z.toJSONSchema(graphReportSchema, draft) };
}
