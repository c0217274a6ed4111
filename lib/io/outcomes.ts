// --outcomes FILE: whether each run delivered, for sources that do not say
// (session files, audit logs) or to override one that does. JSON (an array
// of `{run, delivered}`) or JSONL of the same objects, streamed either way.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import streamArray from 'stream-json/streamers/stream-array.js';
import { InputError } from '../core/errors.js';
import { LineSplitter } from '../core/line-splitter.js';
import type { LinesOutput } from '../core/line-splitter.js';
import { parseLine } from '../core/parse-line.js';
import { sniffFormat } from './sniff.js';

function entry(v: unknown, where: string): [string, boolean] {
  const o = v as { run?: unknown; delivered?: unknown } | null;
  if (typeof o !== 'object' || o === null || (typeof o.run !== 'string' && typeof o.run !== 'number') || typeof o.delivered !== 'boolean') {
    throw new InputError(`${where}: expected {"run": <id>, "delivered": true|false}`);
  }
  return [String(o.run), o.delivered];
}

export async function loadOutcomes(path: string): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  const input = createReadStream(path);
  try {
    await once(input, 'open');
  } catch (err) {
    throw new InputError(`cannot read outcomes ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const chunks: Buffer[] = [];
  let format: ReturnType<typeof sniffFormat>;
  const iter = input[Symbol.asyncIterator]();
  let r = await iter.next();
  for (; !r.done; r = await iter.next()) {
    chunks.push(r.value as Buffer);
    format = sniffFormat(Buffer.concat(chunks), false);
    if (format) break;
  }
  format ??= sniffFormat(Buffer.concat(chunks), true);
  async function* all(): AsyncGenerator<Buffer> {
    yield* chunks;
    for (let n = await iter.next(); !n.done; n = await iter.next()) yield n.value as Buffer;
  }
  if (format === 'document') {
    const items = streamArray.withParserAsStream();
    const feed = (async () => {
      for await (const c of all()) if (!items.write(c)) await once(items, 'drain');
      items.end();
    })();
    try {
      for await (const { key, value } of items as AsyncIterable<{ key: number; value: unknown }>) {
        const [run, delivered] = entry(value, `${path}: [${key}]`);
        out.set(run, delivered);
      }
      await feed;
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${path}: not a JSON array of outcomes (${(err as Error).message})`);
    }
    return out;
  }
  const splitter = new LineSplitter({ file: path });
  const take = (rec: LinesOutput): void => {
    const p = rec.type === 'line' ? parseLine(rec) : rec;
    if (p.type === 'raw_diagnostic') throw new InputError(`${path}:${p.line}: ${p.message}`);
    const [run, delivered] = entry(p.value, `${path}:${p.line}`);
    out.set(run, delivered);
  };
  for await (const c of all()) splitter.write(c, take);
  splitter.end(take);
  return out;
}
