// Writes docs/cli.md's flag tables from the commands' declarations (npm run
// docs), so the reference page cannot drift from what the commands take (a
// test compares them).
import { readFileSync, writeFileSync } from 'node:fs';
import { commandFlags, withFlagTables } from './cli-flag-tables.js';

const file = new URL('../docs/cli.md', import.meta.url);
writeFileSync(file, withFlagTables(readFileSync(file, 'utf8'), await commandFlags()));
