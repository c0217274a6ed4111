// Writes schema/report.schema.json from the report's zod schema, so the JSON
// Schema can never drift from the code (a test compares the two).
import { writeFileSync } from 'node:fs';
import { reportJsonSchema } from '../lib/report-json-schema.js';

writeFileSync(new URL('../schema/report.schema.json', import.meta.url), `${JSON.stringify(reportJsonSchema(), null, 2)}\n`);
