// Every published JSON Schema, by its file name under schema/: the report's
// (composed from the analyses' sections) and the action graph's.
import { reportJsonSchema } from '../lib/report/json-schema.js';
import { graphJsonSchema, graphReportJsonSchema } from '../lib/analyses/graph/json-schema.js';

export const SCHEMA_FILES: Record<string, () => Record<string, unknown>> = {
  'report.schema.json': () => reportJsonSchema(),
  'graph.schema.json': graphJsonSchema,
  'graph-report.schema.json': graphReportJsonSchema,
};
