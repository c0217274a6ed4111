// Many files as one stream: each session's segments in order, each file's
// records between boundary records, so the stages downstream know where a
// session and a segment begin and end. Files are read as streams, one at a
// time, pulled only as fast as the pipeline consumes.
//
// Each file is sniffed first (lib/sniff.ts): JSONL (stream-json, session
// file, audit log — the normalizer tells them apart) is split into lines; a
// JSON document (traces.json, OpenTelemetry spans) goes through the document
// walker, whole or one document per line.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { LineSplitter } from '../core/line-splitter.js';
import type { BoundaryRecord, PreRecord } from '../core/records.js';
import { excerpt } from '../core/records.js';
import type { SessionInput } from './inputs.js';
import { documentLineRecords, documentRecords } from './document-records.js';
import type { FileFormat, Sniffed } from './sniff.js';
import { SNIFF_BYTES, sniffInput, sniffRules } from './sniff.js';
import type { SniffRules } from './sniff.js';
import type { Dialect } from '../dialects/types.js';
import { followChunks, RESTART } from './follow.js';
import type { ThreadKind } from '../core/events.js';
import type { SubagentFile, SubagentPlan } from '../dialects/claude/subagents.js';
import { linkedSubagent, linkedWorkflow, mayLinkBytes, mirroredByFile, planSubagents, unlinkedKind } from '../dialects/claude/subagents.js';
import { onDisk } from '../core/on-disk.js';

// 1 MiB reads: with 64 KiB the pipeline sat idle ~11% of the time waiting on
// the file (measured with --cpu-prof on a 200 MB transcript).
const READ_CHUNK_BYTES = 1024 * 1024;

export type { FileFormat } from './sniff.js';
export { sniffFormat } from './sniff.js';

export interface SourceOptions {
  maxLineBytes?: number;
  /** The formats known (default: the built-in DIALECTS): their documents' first keys make a file a document. */
  dialects?: readonly Dialect[];
  /** Where `-` reads from (default: process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Skip sniffing: read every file as this. */
  format?: FileFormat;
  /** A file that cannot be read: reported, and the rest still read. */
  onInputError?: (file: string, err: NodeJS.ErrnoException) => void;
  /** Stops reading (SIGINT): the current session ends as stopped, later ones are not read. */
  signal?: AbortSignal;
  /** Read session files' subagent files into them (default true). */
  subagents?: boolean;
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

function boundary(edge: BoundaryRecord['edge'], s: SessionInput, segment: number, file: string, last = false, stopped = false, restarted = false): BoundaryRecord {
  const b: BoundaryRecord = restarted ? { type: 'boundary', edge, sessionKey: s.key, segment, file, last, stopped, restarted } : { type: 'boundary', edge, sessionKey: s.key, segment, file, last, stopped };
  if (edge !== 'segment_start') return b;
  return { ...b, ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}), ...(segment === 1 && s.copyOf ? { copiedRecords: s.copyOf.records } : {}) };
}

/** The sniffed bytes, then the rest; `stop.stopped` says whether the signal cut it short. */
async function* chunksOf(input: AsyncIterator<unknown>, head: Buffer[], signal: AbortSignal | undefined, stop: { stopped: boolean }, close: () => void, onBytes?: (n: number) => void): AsyncGenerator<Buffer> {
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
async function sniff(input: AsyncIterator<unknown>, forced: FileFormat | undefined, signal: AbortSignal | undefined, rules: SniffRules): Promise<{ sniffed: Sniffed; head: Buffer[] } | typeof STOPPED> {
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

/** Records in batches: the lines of one read go on together, at the cost of one hand-over. */
type Batch = PreRecord[];

async function* batched<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const x of items) yield [x];
}

/** `session`: the session whose first segment `file` is (its subagent files given as inputs are read into it). */
async function* fileRecords(file: string, opts: SourceOptions, stop: { stopped: boolean }, session?: SessionInput): AsyncGenerator<Batch | Restart> {
  if (opts.follow && file !== '-') {
    const plan = opts.subagents === false ? null : await planSubagents(file, opts.cwd, session?.subagents);
    // Subagents started after following began have files the first plan never saw.
    const replan = opts.subagents === false ? undefined : () => planSubagents(file, opts.cwd, session?.subagents);
    yield* withSubagents(linesOf(file, followed(file, opts, opts.follow, stop), opts), plan, opts, replan);
    return;
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
  const plan = opts.subagents === false ? null : await planSubagents(file, opts.cwd, session?.subagents);
  yield* withSubagents(linesOf(file, chunks, opts), plan, opts);
  if (plan && !stop.stopped) yield* unlinked(plan, opts);
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

/** Marks a followed file truncated or replaced: its session starts over. */
interface Restart {
  readonly type: 'restart';
}

/** A file's lines, and the diagnostics of lines too long to keep, a batch per read. */
async function* linesOf(file: string, chunks: AsyncIterable<Buffer | typeof RESTART>, opts: SourceOptions): AsyncGenerator<Batch | Restart> {
  let splitter = new LineSplitter({ file, maxLineBytes: opts.maxLineBytes, lazy: opts.lazyLines });
  let out: PreRecord[] = [];
  const push = (x: PreRecord): void => {
    out.push(x);
  };
  try {
    for await (const chunk of chunks) {
      if (chunk === RESTART) {
        // What was half-written before the cut is void.
        splitter = new LineSplitter({ file, maxLineBytes: opts.maxLineBytes, lazy: opts.lazyLines });
        yield { type: 'restart' };
        continue;
      }
      splitter.write(chunk, push);
      if (out.length) {
        const batch = out;
        out = [];
        yield batch;
      }
    }
  } finally {
    // Whatever was read before a failure is still analysed.
    splitter.end(push);
  }
  if (out.length) yield out;
}

const AGENT_ID = /"agentId"\s*:\s*"([^"\\]+)"/;
const RUN_ID = /"runId"\s*:\s*"([^"\\]+)"/;

/** A session's lines with each linked subagent file read in where its result comes back. */
async function* withSubagents(lines: AsyncIterable<Batch | Restart>, plan: SubagentPlan | null, opts: SourceOptions, replan?: () => Promise<SubagentPlan | null>): AsyncGenerator<Batch | Restart> {
  for await (const batch of lines) {
    if (!Array.isArray(batch) || (!plan && !replan)) {
      yield batch;
      continue;
    }
    // A subagent's records go in before the line that links it: the batch is cut there.
    let out: PreRecord[] = [];
    for (const rec of batch) {
      // A long line kept as bytes is looked at only if it can link anything (decoding it would undo the lazy parse).
      // (Without a plan yet, only a following replan looks, and only for an agent or a run.)
      const quiet = rec.type === 'line' && rec.bytes !== undefined && !(plan ? mayLinkBytes(rec.bytes, plan) : rec.bytes.includes('"agentId"') || rec.bytes.includes('"runId"'));
      if (quiet) {
        out.push(rec);
        continue;
      }
      if (replan && rec.type === 'line' && rec.text.includes('"tool_result"')) {
        // A followed session: a result naming an agent or a workflow run not yet planned means new files.
        const id = AGENT_ID.exec(rec.text)?.[1];
        const run = RUN_ID.exec(rec.text)?.[1];
        if ((id !== undefined && !plan?.byAgentId.has(id)) || (run !== undefined && !plan?.byWorkflowRun.has(run))) {
          const fresh = await replan();
          if (fresh) {
            for (const f of plan?.consumed ?? []) fresh.consumed.add(f);
            plan = fresh;
          }
        }
      }
      if (plan && rec.type === 'line') {
        if (mirroredByFile(rec.text, plan)) continue;
        // A workflow's run first: its agents' files may name the call too, and all of them are its.
        const workflow = linkedWorkflow(rec.text, plan);
        const link = workflow ? undefined : linkedSubagent(rec.text, plan);
        if (link || workflow) {
          if (out.length) yield out;
          out = [];
          if (link) yield* subagent(link.sub, link.toolUseId, 'subagent', plan, opts);
          for (const sub of workflow?.subs ?? []) yield* subagent(sub, workflow!.toolUseId, 'subagent', plan, opts);
        }
      }
      out.push(rec);
    }
    if (out.length) yield out;
  }
}

async function* subagent(sub: SubagentFile, spawnedBy: string | null, kind: ThreadKind, plan: SubagentPlan, opts: SourceOptions): AsyncGenerator<Batch | Restart> {
  plan.consumed.add(sub.file);
  // A workflow's agents share the call that started them (or, unlinked, their
  // run): each is a thread of its own under it.
  const agent = `agent-${sub.agentId}`;
  const thread = sub.workflowRun === undefined ? (spawnedBy ?? agent) : `${spawnedBy ?? sub.workflowRun}/${agent}`;
  yield [{ type: 'thread_boundary', edge: 'start', thread, threadKind: kind, spawnedBy, file: sub.file }];
  const stream = createReadStream(onDisk(sub.file, opts.cwd), { highWaterMark: READ_CHUNK_BYTES });
  try {
    yield* withSubagents(linesOf(sub.file, stream as AsyncIterable<Buffer>, opts), plan, opts);
  } catch (err) {
    opts.onInputError?.(sub.file, err as NodeJS.ErrnoException);
  } finally {
    stream.destroy();
  }
  yield [{ type: 'thread_boundary', edge: 'end', thread, threadKind: kind, spawnedBy, file: sub.file }];
}

/** Subagent files nothing linked: Claude Code's helpers (internal), else orphans. */
async function* unlinked(plan: SubagentPlan, opts: SourceOptions): AsyncGenerator<Batch | Restart> {
  for (const sub of [...plan.byAgentId.values(), ...[...plan.byWorkflowRun.values()].flat()]) {
    if (plan.consumed.has(sub.file)) continue;
    const kind = await unlinkedKind(sub, opts.cwd);
    // A teammate is spawned by a call of the lead: one nothing links is worth saying.
    if (sub.teammate !== undefined && kind === 'orphan') yield [{ type: 'raw_diagnostic', code: 'teammate_unlinked', file: sub.file, line: 0, message: `teammate ${excerpt(sub.teammate, 60)}'s transcript, which no Agent call of this session names: read as an orphan thread` }];
    yield* subagent(sub, null, kind, plan, opts);
  }
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
