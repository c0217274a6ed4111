// Every published JSON Schema, by its file name under schema/: the report's
// (composed from the analyses' sections), the action graph's, the comparison's and the calibration's.
import { reportJsonSchema } from '../lib/report/json-schema.js';
import { graphJsonSchema, graphReportJsonSchema } from '../lib/analyses/graph/json-schema.js';
import { compareJsonSchema } from '../lib/compare/schema.js';
import { calibrationJsonSchema } from '../lib/analyses/calibration/document.js';

export const SCHEMA_FILES: Record<string, () => Record<string, unknown>> = {
  'report.schema.json': () => reportJsonSchema(),
  'graph.schema.json': graphJsonSchema,
  'graph-report.schema.json': graphReportJsonSchema,
  'compare.schema.json': compareJsonSchema,
  'calibration.schema.json': calibrationJsonSchema,
};
