// A JSON file a user names (a graph.json, an MCP `tools/list` response),
// read as a stream into one value: these are small by nature, but nothing in
// the product reads a whole file at once, and a wrong path or broken JSON is
// one clear line, never a stack.
import { createReadStream } from 'node:fs';
import { parser } from 'stream-json';
import Assembler from 'stream-json/assembler.js';
import { InputError } from './errors.js';
import { onDisk } from './on-disk.js';

/** `path` as the user wrote it (messages show it), resolved against `cwd` to read. */
export async function readJsonFile(path: string, what: string, cwd?: string): Promise<unknown> {
  const asm = new Assembler();
  const tokens = parser.asStream({ packValues: true, streamValues: false });
  const bytes = createReadStream(onDisk(path, cwd));
  bytes.on('error', (err) => tokens.destroy(err));
  let seen = false;
  try {
    for await (const t of bytes.pipe(tokens) as AsyncIterable<{ name: string; value?: unknown }>) {
      seen = true;
      asm.consume(t as never);
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== undefined && e.syscall !== undefined) throw new InputError(`cannot read ${what} ${path}: ${e.code}`);
    throw new InputError(`${path}: ${what} is not valid JSON (${e.message})`);
  }
  if (!seen || !asm.done) throw new InputError(`${path}: ${what} is empty or incomplete JSON`);
  return asm.current as unknown;
}
