// Runs one script as a whole process would, and tells the benchmark what
// only the process knows: its peak RSS and exit code, written to fd 3 as one
// JSON line when it exits. The benchmark times the process from the outside
// (startup included), so this wrapper adds only its own few lines.
//
//   node dist/bench/measure.js SCRIPT [ARGS...]
// runs SCRIPT with process.argv = [node, SCRIPT, ...ARGS]; `noop` runs nothing.
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [script = 'noop', ...args] = process.argv.slice(2);
process.on('exit', (code) => {
  // maxRSS is in KiB.
  writeSync(3, `${JSON.stringify({ maxRssMB: (process.resourceUsage().maxRSS * 1024) / 1e6, exitCode: process.exitCode ?? code })}\n`);
});
if (script !== 'noop') {
  const path = resolve(script);
  process.argv = [process.argv[0]!, path, ...args];
  await import(pathToFileURL(path).href);
}
