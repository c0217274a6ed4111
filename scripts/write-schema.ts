// Writes schema/*.schema.json from the zod schemas, so the JSON Schemas can
// never drift from the code (a test compares them).
import { writeFileSync } from 'node:fs';
import { SCHEMA_FILES } from './schema-files.js';

for (const [name, schema] of Object.entries(SCHEMA_FILES)) writeFileSync(new URL(`../schema/${name}`, import.meta.url), `${JSON.stringify(schema(), null, 2)}\n`);
