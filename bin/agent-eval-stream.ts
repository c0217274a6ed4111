#!/usr/bin/env node
import { main } from '../lib/cli/main.js';

const ac = new AbortController();
// The first SIGINT or SIGTERM stops reading, and the report of what was read
// is still written; a second one ends the process the default way.
process.once('SIGINT', () => ac.abort());
process.once('SIGTERM', () => ac.abort());
// A reader that leaves early (`| head`) surfaces as EPIPE on stdout; the run
// handles it, and nothing more should reach a closed pipe.
process.stdout.on('error', () => {});

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
  signal: ac.signal,
});
// exitCode, not exit(): stdout to a pipe is asynchronous and must drain.
process.exitCode = code;
