// Writes docs/cli.md's flag tables from the commands' declarations, so the
// reference page cannot drift from what the commands take: `npm run build`
// runs it (and `npm run docs` alone); a test compares them. A page already
// current is left untouched.
import { readFileSync, writeFileSync } from 'node:fs';
import { commandFlags, withFlagTables } from './cli-flag-tables.js';

const file = new URL('../docs/cli.md', import.meta.url);
const page = readFileSync(file, 'utf8');
const written = withFlagTables(page, await commandFlags());
if (written !== page) writeFileSync(file, written);
