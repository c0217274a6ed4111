// The dialect contract: how a source format becomes canonical events. A
// dialect is one object — its name, how to recognise its records, how its
// files are read (and the files that go with them), and a factory for its
// per-session normalizer — passed to `normalize({ dialects })` and to the
// file source. Each format's folder holds its dialect; registry.ts lists
// the built-in ones. The file source (lib/io) calls a dialect only through
// this contract: it knows no format.
import type { EventBody, RecordMeta, ThreadKind } from '../core/events.js';
import type { PreRecord, RawDiagnostic } from '../core/records.js';

/** Where a normalizer sends what it decides; the stage stamps the envelope. */
export interface EventSink {
  readonly started: boolean;
  /** The thread every record now belongs to (a subagent file read into its session), if any. */
  readonly threadOverride: string | undefined;
  pushThread(thread: string): void;
  popThread(): void;
  /** The file being read (a path as given, or `-`). */
  readonly file: string;
  start(body: { tools: string[]; model?: string; version?: string }, line: number, meta: RecordMeta): void;
  /** `body` must be a fresh object: it is stamped with the envelope in place. */
  emit(body: EventBody, thread: string, line: number, meta: RecordMeta): void;
  /**
   * A delegation in `parent` starts the subagent thread `thread`; `isolated`,
   * the subagent works in a directory of its own (a worktree), which its
   * records without a `cwd` do not name.
   */
  delegate(thread: string, parent: string, isolated: boolean): void;
  setSessionId(id: string): void;
  /** A record type nobody told us about: skipped and counted. */
  unknownType(type: string, line: number): void;
}

export interface RecordNormalizer {
  record(v: Record<string, unknown>, line: number, sink: EventSink): void;
  /** True when the segment's last turn was closed by the format itself (a `result`); resets. */
  takeEndedByResult(): boolean;
  /** The session is over: emit whatever was held back (runs still open). */
  end?(sink: EventSink): void;
}

export interface Dialect {
  readonly name: string;
  /** The record belongs to this format (records are tried against each dialect in order). */
  detect(v: Record<string, unknown>): boolean;
  /** The `source` its events carry, decided per record (default: the dialect's name). */
  sourceOf?(v: Record<string, unknown>): string;
  create(): RecordNormalizer;
  /** How `--format NAME` reads its files: line by line, or as one JSON document (default lines). */
  readonly reads?: 'lines' | 'document';
  /** First keys of the JSON documents it reads (`{"runs": …}`): a file that opens with one is a document. */
  readonly documentKeys?: readonly string[];
  /** A file of such documents one per line (OTLP exporters): the first line tells. */
  documentPerLine?(v: Record<string, unknown>): boolean;
  /** How a document is walked, token by token, into records for `detect` (one walker per file). */
  walker?(file: string): DocumentWalker;
  /** The files that go with a session's file (Claude Code's subagent transcripts): how they are found and read in. */
  readonly companions?: CompanionFiles;
}

/** One token of the JSON tokenizer (a key, a value, a bracket). */
export type JsonToken = { name: string; value?: unknown };

/** A document's tokens in, complete records out, one value at a time: a document is never held whole. */
export interface DocumentWalker {
  token(t: JsonToken, push: (r: PreRecord) => void): void;
  /** The document is over: what waited for its end (spans whose trace may still grow). */
  end(push: (r: PreRecord) => void): void;
}

// Companion files: files a format keeps beside a session's file that belong
// to the session (Claude Code: a subagent's transcript, its sidecar). They
// are found (`owns` in a folder walk, `gather` among the inputs, `discover`
// beside the session's file), linked to the line of the session where they
// are read in (`Weave.link`), and those nothing links are read last, in the
// order `Weave.unlinked` gives. The file source does the reading: threads,
// batches, errors; the dialect says which file goes where.

/** A companion file named as an input, folded into its session, and the id its records carry. */
export interface GivenCompanion {
  readonly file: string;
  readonly id: string;
}

/** What a session copied from another given beside it. */
export interface CopyOf {
  /** The session (its key: the path given) the records were copied from. */
  readonly session: string;
  /** How many of its first uuid-bearing records are copies (with whatever records lie between them). */
  readonly records: number;
}

/** A session among the inputs, as far as a dialect's companion hook reads and marks it. */
export interface InputSession {
  /** Stable key: the first segment's path as given (or `-`). */
  readonly key: string;
  /** Segment files in order. */
  readonly files: readonly string[];
  /** Companion files of this session given as inputs: read in where they link. */
  readonly companions?: readonly GivenCompanion[];
  /** The id the session is reported under, whatever its records say (a companion read without its session). */
  readonly sessionId?: string;
  /** It begins with a copy of another session given beside it (a backgrounded session): those records are not read again. */
  readonly copyOf?: CopyOf;
}

export interface CompanionFiles {
  /**
   * A folder walk meets `name` (a folder when `folder`) among `siblings`
   * (the names in the same folder, `dir`, a path the hook may read): true when
   * it belongs to a session beside it, which reads it; the walk neither
   * reads it nor says it skipped it.
   */
  owns(name: string, folder: boolean, siblings: ReadonlySet<string>, dir: string): boolean;
  /**
   * The inputs grouped into sessions, in order: companions given as inputs
   * of their own folded into their sessions (or kept as runs of their own),
   * sessions that begin as a copy of another marked; a warning for each
   * that a reader of the report should know.
   */
  gather<S extends InputSession>(sessions: readonly S[], cwd: string | undefined): Promise<{ sessions: S[]; warnings: string[] }>;
  /** A session's companions, found beside its first file and among those `given`: null when it has none (nor, when `follow`ed, may have). */
  discover(file: string, o: { readonly cwd: string | undefined; readonly given: readonly GivenCompanion[]; readonly follow: boolean }): Promise<Weave | null>;
  /**
   * Records kept beside a session's first file that its normalizer reads
   * before the file's own (a Harbor trial's result.json, before its
   * trajectory): none when there are none. A file that cannot be read is a
   * diagnostic among them, and the session is still read.
   */
  prelude?(file: string, o: { readonly cwd: string | undefined }): Promise<readonly PreRecord[]>;
}

/** One session's companions while its lines (and theirs, as they are read in) go by. */
export interface Weave {
  /** A line kept as bytes (a long tool result) may link one: false lets it pass undecoded. */
  mayLink(bytes: Buffer): boolean;
  /** A followed session's own line names a companion `discover` could not see yet (written since): `rediscover` first. */
  outdated(text: string): boolean;
  rediscover(): Promise<void>;
  /** What a line does: `mirror` (it repeats what a companion read in holds: dropped), the companions read in before it, or nothing. */
  link(text: string): 'mirror' | readonly CompanionRead[] | undefined;
  /** Reading `file` begins: nothing links it again. */
  reading(file: string): void;
  /** After the session's own lines, the companions nothing linked, one at a time (reading one may link others), each with what to say first. */
  unlinked(): AsyncIterable<{ readonly read: CompanionRead; readonly said?: RawDiagnostic }>;
}

/** A companion file read into its session: its records are the thread's. */
export interface CompanionRead {
  readonly file: string;
  readonly thread: string;
  readonly kind: ThreadKind;
  /** The call that started it; null when nothing linked it. */
  readonly spawnedBy: string | null;
}
