// The dialect contract: how a source format becomes canonical events. A
// dialect is one object — its name, how to recognise its records, how its
// files are read, and a factory for its per-session normalizer — passed to
// `normalize({ dialects })` and to the file source. Each format's folder
// holds its dialect; registry.ts lists the built-in ones.
import type { EventBody, RecordMeta } from '../core/events.js';
import type { PreRecord } from '../core/records.js';

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
}

/** One token of the JSON tokenizer (a key, a value, a bracket). */
export type JsonToken = { name: string; value?: unknown };

/** A document's tokens in, complete records out, one value at a time: a document is never held whole. */
export interface DocumentWalker {
  token(t: JsonToken, push: (r: PreRecord) => void): void;
  /** The document is over: what waited for its end (spans whose trace may still grow). */
  end(push: (r: PreRecord) => void): void;
}
