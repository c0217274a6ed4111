// A session as the inputs give it: its files in order, and the subagent
// files named beside it.
import type { GivenSubagent } from '../dialects/claude/subagents.js';

export interface SessionInput {
  /** Stable key: the first segment's path as given (or `-`). */
  readonly key: string;
  /** Its key for `--shard`: the first segment's path relative to the folder input it was found under, or as given (lib/io/shard.ts). */
  readonly shardKey?: string;
  /** Segment files in order. */
  readonly files: readonly string[];
  /** Subagent files of this session given as inputs: read in where their delegation returns. */
  readonly subagents?: readonly GivenSubagent[];
  /** The id the session is reported under, whatever its records say (a subagent file read without its session). */
  readonly sessionId?: string;
  /** It begins with a copy of another session given beside it (a backgrounded session): those records are not read again. */
  readonly copyOf?: CopyOf;
}

/** What a session copied from another (lib/io/background-copies.ts). */
export interface CopyOf {
  /** The session (its key: the path given) the records were copied from. */
  readonly session: string;
  /** How many of its first uuid-bearing records are copies (with whatever records lie between them). */
  readonly records: number;
}
