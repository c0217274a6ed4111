// Writes schema/*.schema.json from the zod schemas, so the JSON Schemas can
// never drift from the code: `npm run build` runs it (and `npm run schema`
// alone); a test compares them. A file already current is left untouched.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SCHEMA_FILES } from './schema-files.js';

for (const [name, schema] of Object.entries(SCHEMA_FILES)) {
  const file = new URL(`../schema/${name}`, import.meta.url);
  const text = `${JSON.stringify(schema(), null, 2)}\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}
