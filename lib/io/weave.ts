// A session's companion files read into it: each before the line of the
// session that links it, those nothing links after the session's own lines,
// each between thread boundaries, so their events flow as if interleaved.
// Which file goes where, under which thread, is the dialect's (its
// `companions` hook, found through the registry); the reading is this file's.
import { createReadStream } from 'node:fs';
import type { PreRecord } from '../core/records.js';
import { onDisk } from '../core/on-disk.js';
import type { CompanionRead, Dialect, GivenCompanion, Weave } from '../dialects/types.js';
import { companionHooks } from '../dialects/registry.js';
import type { Batch, LineOptions, Restart } from './file-lines.js';
import { linesOf, READ_CHUNK_BYTES } from './file-lines.js';

export interface WeaveOptions extends LineOptions {
  readonly cwd?: string;
  readonly dialects?: readonly Dialect[];
  /** A companion file that cannot be read: reported, and the session still read. */
  readonly onInputError?: (file: string, err: NodeJS.ErrnoException) => void;
}

/** The companions of the session whose first file is `file`, from the first dialect that has any; null when none has. */
export async function weaveOf(file: string, o: WeaveOptions, given: readonly GivenCompanion[], follow: boolean): Promise<Weave | null> {
  for (const hook of companionHooks(o.dialects)) {
    const weave = await hook.discover(file, { cwd: o.cwd, given, follow });
    if (weave) return weave;
  }
  return null;
}

/** The records a dialect keeps beside the session's first file for before its own (a Harbor trial's result): from the first hook that has any. */
export async function preludeOf(file: string, o: WeaveOptions): Promise<readonly PreRecord[]> {
  for (const hook of companionHooks(o.dialects)) {
    const records = (await hook.prelude?.(file, { cwd: o.cwd })) ?? [];
    if (records.length) return records;
  }
  return [];
}

/**
 * `lines` with each linked companion read in before the line that links it.
 * `own`: they are the session file's own lines (a followed one may link
 * companions written since the weave was made), not a companion's.
 */
export async function* woven(lines: AsyncIterable<Batch | Restart>, weave: Weave | null, o: WeaveOptions, own: boolean): AsyncGenerator<Batch | Restart> {
  for await (const batch of lines) {
    if (!Array.isArray(batch) || !weave) {
      yield batch;
      continue;
    }
    // A companion's records go in before the line that links it: the batch is cut there.
    let out: PreRecord[] = [];
    for (const rec of batch) {
      // A long line kept as bytes is looked at only if it can link anything (decoding it would undo the lazy parse).
      if (rec.type !== 'line' || (rec.bytes !== undefined && !weave.mayLink(rec.bytes))) {
        out.push(rec);
        continue;
      }
      if (own && weave.outdated(rec.text)) await weave.rediscover();
      const link = weave.link(rec.text);
      if (link === 'mirror') continue;
      if (link) {
        if (out.length) yield out;
        out = [];
        for (const read of link) yield* companion(read, weave, o);
      }
      out.push(rec);
    }
    if (out.length) yield out;
  }
}

/** One companion file, between its thread's boundaries; its own lines may link others. */
async function* companion(read: CompanionRead, weave: Weave, o: WeaveOptions): AsyncGenerator<Batch | Restart> {
  weave.reading(read.file);
  const { thread, kind, spawnedBy, file } = read;
  yield [{ type: 'thread_boundary', edge: 'start', thread, threadKind: kind, spawnedBy, file }];
  const stream = createReadStream(onDisk(file, o.cwd), { highWaterMark: READ_CHUNK_BYTES });
  try {
    yield* woven(linesOf(file, stream as AsyncIterable<Buffer>, o), weave, o, false);
  } catch (err) {
    o.onInputError?.(file, err as NodeJS.ErrnoException);
  } finally {
    stream.destroy();
  }
  yield [{ type: 'thread_boundary', edge: 'end', thread, threadKind: kind, spawnedBy, file }];
}

/** The companions nothing linked, after the session's own lines, in the order the dialect gives. */
export async function* unlinked(weave: Weave, o: WeaveOptions): AsyncGenerator<Batch | Restart> {
  for await (const { read, said } of weave.unlinked()) {
    if (said) yield [said];
    yield* companion(read, weave, o);
  }
}
