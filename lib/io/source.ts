// Many files as one stream: each session's segments in order, each file's
// records between boundary records, so the stages downstream know where a
// session and a segment begin and end. Files are read as streams, one at a
// time, pulled only as fast as the pipeline consumes.
//
// Each file is sniffed first (lib/io/sniff.ts): JSONL (stream-json, session
// file, audit log — the normalizer tells them apart) is split into lines; a
// JSON document (traces.json, OpenTelemetry spans) goes through the document
// walker, whole or one document per line. A session's companion files (its
// subagents' transcripts) are read into its first file (weave.ts).
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { BoundaryRecord, PreRecord } from '../core/records.js';
import type { SessionInput } from './session-input.js';
import { documentLineRecords, documentRecords } from './document-records.js';
import type { FileFormat, Sniffed } from './sniff.js';
import { SNIFF_BYTES, sniffInput, sniffRules } from './sniff.js';
import type { SniffRules } from './sniff.js';
import type { Dialect } from '../dialects/types.js';
import { followChunks, RESTART } from './follow.js';
import type { Batch, Restart } from './file-lines.js';
import { linesOf, READ_CHUNK_BYTES } from './file-lines.js';
import { preludeOf, unlinked, weaveOf, woven } from './weave.js';
import { onDisk } from '../core/on-disk.js';

export type { FileFormat } from './sniff.js';
export { sniffFormat } from './sniff.js';

export interface SourceOptions {
  maxLineBytes?: number;
  /** The formats known (default: the built-in DIALECTS): their documents' first keys make a file a document, their companion hooks find a session's companion files. */
  dialects?: readonly Dialect[];
  /** Where `-` reads from (default: process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Skip sniffing: read every file as this. */
  format?: FileFormat;
  /** A file that cannot be read: reported, and the rest still read. */
  onInputError?: (file: string, err: NodeJS.ErrnoException) => void;
  /** Stops reading (SIGINT): the current session ends as stopped, later ones are not read. */
  signal?: AbortSignal;
  /** Read each session's companion files (Claude Code's subagent transcripts) into it (default true). */
  companions?: boolean;
  /** Keep reading files as they grow (`--follow`). */
  follow?: FollowSettings;
  /** Told how many bytes of the inputs were read (for progress on a terminal). */
  onBytes?: (n: number) => void;
  /** Relative paths are read from here (default: the process's cwd); reports show them as given. */
  cwd?: string;
  /** Long lines that may be tool results stay bytes until read (for `fusedStages`' lazy parse; see LinesOptions.lazy). */
  lazyLines?: boolean;
}

export interface FollowSettings {
  /** Stop after this long without new bytes (ms); 'auto': none for session files, 10 minutes for stream-json. */
  readonly idleMs?: number | 'auto';
  /** Ends the follow normally (the run's `result` arrived, a newer session started). */
  readonly end?: AbortSignal;
}

/** stream-json runs end with a `result`; one that died is given this long before it is called stopped. */
export const STREAM_JSON_IDLE_MS = 10 * 60 * 1000;

const STOPPED = Symbol('stopped');

/** The next chunk, or STOPPED as soon as the signal fires (stdin may wait forever). */
function nextOrStop(input: AsyncIterator<unknown>, signal: AbortSignal | undefined): Promise<IteratorResult<unknown> | typeof STOPPED> {
  if (!signal) return input.next();
  if (signal.aborted) return Promise.resolve(STOPPED);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(STOPPED);
    signal.addEventListener('abort', onAbort, { once: true });
    input.next().then(
      (r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function boundary(
  edge: BoundaryRecord['edge'],
  s: SessionInput,
  segment: number,
  file: string,
  last = false,
  stopped = false,
  restarted = false,
): BoundaryRecord {
  const b: BoundaryRecord = restarted
    ? { type: 'boundary', edge, sessionKey: s.key, segment, file, last, stopped, restarted }
    : { type: 'boundary', edge, sessionKey: s.key, segment, file, last, stopped };
  if (edge !== 'segment_start') return b;
  return { ...b, ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}), ...(segment === 1 && s.copyOf ? { copiedRecords: s.copyOf.records } : {}) };
}

/** The sniffed bytes, then the rest; `stop.stopped` says whether the signal cut it short. */
async function* chunksOf(
  input: AsyncIterator<unknown>,
  head: Buffer[],
  signal: AbortSignal | undefined,
  stop: { stopped: boolean },
  close: () => void,
  onBytes?: (n: number) => void,
): AsyncGenerator<Buffer> {
  for (const b of head) onBytes?.(b.length);
  yield* head;
  for (;;) {
    const r = await nextOrStop(input, signal);
    if (r === STOPPED) {
      stop.stopped = true;
      // A pending read (stdin) would keep the process alive: close the source.
      close();
      return;
    }
    if (r.done) return;
    const b = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    onBytes?.(b.length);
    yield b;
  }
}

/**
 * Reads just enough of `input` to know its format; the bytes read are handed
 * back. Waiting for the first bytes (a terminal on stdin) ends on `signal`.
 */
async function sniff(
  input: AsyncIterator<unknown>,
  forced: FileFormat | undefined,
  signal: AbortSignal | undefined,
  rules: SniffRules,
): Promise<{ sniffed: Sniffed; head: Buffer[] } | typeof STOPPED> {
  const head: Buffer[] = [];
  if (forced) return { sniffed: { format: forced, perLine: false }, head };
  let bytes = 0;
  for (;;) {
    const r = await nextOrStop(input, signal);
    if (r === STOPPED) return STOPPED;
    if (!r.done) {
      const b = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
      head.push(b);
      bytes += b.length;
    }
    const all = head.length === 1 ? head[0]! : Buffer.concat(head);
    const sniffed = sniffInput(all.subarray(0, SNIFF_BYTES), r.done === true, rules);
    if (sniffed) return { sniffed, head };
    if (r.done) return { sniffed: { format: 'jsonl', perLine: false }, head };
  }
}

async function* batched<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const x of items) yield [x];
}

/** `session`: the session whose first segment `file` is (its companion files given as inputs are read into it). */
async function* fileRecords(file: string, opts: SourceOptions, stop: { stopped: boolean }, session?: SessionInput): AsyncGenerator<Batch | Restart> {
  const given = session?.companions ?? [];
  if (opts.follow && file !== '-') {
    const weave = opts.companions === false ? null : await weaveOf(file, opts, given, true);
    yield* woven(linesOf(file, followed(file, opts, opts.follow, stop), opts), weave, opts, true);
    return;
  }
  // What the dialect keeps beside the session for before its own records (a Harbor trial's result).
  if (opts.companions !== false && file !== '-' && (session === undefined || session.files[0] === file)) {
    const before = await preludeOf(file, opts);
    if (before.length) yield [...before];
  }
  const stream = file === '-' ? (opts.stdin ?? process.stdin) : createReadStream(onDisk(file, opts.cwd), { highWaterMark: READ_CHUNK_BYTES });
  const input = stream[Symbol.asyncIterator]();
  const close = (): void => {
    (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  };
  const sniffedHead = await sniff(input, opts.format, opts.signal, sniffRules(opts.dialects));
  if (sniffedHead === STOPPED) {
    stop.stopped = true;
    close();
    return;
  }
  const { sniffed, head } = sniffedHead;
  const chunks = chunksOf(input, head, opts.signal, stop, close, opts.onBytes);
  if (sniffed.format === 'document') {
    try {
      yield* batched(sniffed.perLine ? documentLineRecords(chunks, file, opts.maxLineBytes, opts.dialects) : documentRecords(chunks, file, opts.dialects));
    } finally {
      // A document broken halfway is not read to its end.
      close();
    }
    return;
  }
  const weave = opts.companions === false ? null : await weaveOf(file, opts, given, false);
  yield* woven(linesOf(file, chunks, opts), weave, opts, true);
  if (weave && !stop.stopped) yield* unlinked(weave, opts);
}

/** A followed file's bytes; SIGINT or the idle timeout stop it (stopped), `end` ends it. */
async function* followed(file: string, opts: SourceOptions, f: FollowSettings, stop: { stopped: boolean }): AsyncGenerator<Buffer | typeof RESTART> {
  const ac = new AbortController();
  const onStop = (): void => {
    stop.stopped = true;
    ac.abort();
  };
  const onEnd = (): void => ac.abort();
  opts.signal?.addEventListener('abort', onStop, { once: true });
  f.end?.addEventListener('abort', onEnd, { once: true });
  if (opts.signal?.aborted) onStop();
  if (f.end?.aborted) onEnd();
  // Undecided (a new session file may hold only a snapshot line for a while): no idle stop yet.
  let sessionFile: boolean | undefined;
  const idleMs = (): number | undefined => (f.idleMs === 'auto' ? (sessionFile === false ? STREAM_JSON_IDLE_MS : undefined) : f.idleMs);
  try {
    for await (const c of followChunks(onDisk(file, opts.cwd), { signal: ac.signal, idleMs, onIdle: () => (stop.stopped = true) })) {
      if (sessionFile === undefined && c !== RESTART && c.length) sessionFile = followedKind(c);
      yield c;
    }
  } finally {
    opts.signal?.removeEventListener('abort', onStop);
    f.end?.removeEventListener('abort', onEnd);
  }
}

/**
 * Session file (true) or stream-json (false), once the bytes say: session
 * records carry `sessionId` (2.x files open with a `file-history-snapshot`,
 * 1.0 files with a `summary`, neither has it); stream-json lines `session_id`.
 */
export function followedKind(chunk: Buffer): boolean | undefined {
  if (chunk.includes('"sessionId"') || chunk.includes('"type":"file-history-snapshot"') || chunk.includes('"leafUuid"')) return true;
  if (chunk.includes('"session_id"')) return false;
  return undefined;
}

/** The records of sessions one after the other, between boundaries, in batches. */
export async function* sessionBatches(sessions: readonly SessionInput[], opts: SourceOptions): AsyncGenerator<Batch> {
  const stop = { stopped: false };
  for (const s of sessions) {
    for (let i = 0; i < s.files.length; i++) {
      const file = s.files[i]!;
      yield [boundary('segment_start', s, i + 1, file)];
      try {
        for await (const batch of fileRecords(file, opts, stop, i === 0 ? s : undefined)) {
          if (Array.isArray(batch)) yield batch;
          else {
            // A followed file cut short or replaced: its session starts over.
            yield [boundary('segment_end', s, i + 1, file, true, true, true), boundary('segment_start', s, 1, file)];
          }
        }
      } catch (err) {
        // Stopped from downstream (a reader left): not the file's fault.
        if ((err as Error).name === 'AbortError') return;
        opts.onInputError?.(file, err as NodeJS.ErrnoException);
      }
      if (stop.stopped || opts.signal?.aborted) {
        yield [boundary('segment_end', s, i + 1, file, true, true)];
        return;
      }
      yield [boundary('segment_end', s, i + 1, file, i === s.files.length - 1)];
    }
  }
}

/** The records of sessions one after the other, between boundaries. */
export async function* sessionRecords(sessions: readonly SessionInput[], opts: SourceOptions): AsyncGenerator<PreRecord> {
  for await (const batch of sessionBatches(sessions, opts)) yield* batch;
}

/**
 * An object stream of boundary, line and diagnostic records for `parse`;
 * with `batches`, each chunk is an array of them (every stage takes those).
 */
export function readSessions(sessions: readonly SessionInput[], opts: SourceOptions & { batches?: boolean } = {}): Readable {
  return Readable.from(opts.batches ? sessionBatches(sessions, opts) : sessionRecords(sessions, opts), { objectMode: true, highWaterMark: 8 });
}
