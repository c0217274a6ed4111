// A session as the inputs give it: its files in order, and what its
// dialect's companion hook marked on it (the companion files named beside
// it, the id it is reported under, the copy it begins with).
import type { InputSession } from '../dialects/types.js';

export interface SessionInput extends InputSession {
  /** Its key for `--shard`: the first segment's path relative to the folder input it was found under, or as given (lib/io/shard.ts). */
  readonly shardKey?: string;
}
