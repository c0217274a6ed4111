// The sessions open on one partition of a live stream, and the offset that
// is safe to commit: below the first offset of the oldest session still
// open, so a rebalance or a crash replays every open session from its start
// (at-least-once). A session whose first message read is not the start of a
// run — a replay that began inside a session already reported — is skipped
// to its end: reporting its tail would replace a complete report with a
// partial one downstream. A run's `system` `init` always starts a session.
// A session's report is made at its first `result` (or the idle timeout):
// lines that come for it after that — more turns of a multi-turn stream, or
// a run that outlived the idle timeout — are not in it, and are told
// (`onContinued`), never silently dropped.
import type { Configured } from '../analyses/types.js';
import type { Report } from '../report/index.js';
import { LiveSession } from './live-session.js';
import { RecentSet } from '../core/fifo.js';

/** Sessions remembered as reported, per partition: enough to tell a continuation from a replay after any ordinary pause. */
const REMEMBERED_SESSIONS = 65536;

export interface EndedSession {
  readonly key: string;
  readonly partition: number;
  /** The offsets of its first and last messages. */
  readonly first: number;
  readonly last: number;
  /** Ended by its result, or by the idle timeout. */
  readonly ending: 'result' | 'idle';
  readonly report: Report;
}

interface Open {
  /** null: a replayed tail, skipped to its end. */
  readonly session: LiveSession | null;
  readonly first: number;
  last: number;
  seenAt: number;
}

const INIT = /^\s*\{[^\n]*"type"\s*:\s*"system"[^\n]*"subtype"\s*:\s*"init"|^\s*\{[^\n]*"subtype"\s*:\s*"init"[^\n]*"type"\s*:\s*"system"/;

/** Is a line a run's `system` `init` record? */
export function isInit(text: string): boolean {
  if (!INIT.test(text)) return false;
  try {
    const v = JSON.parse(text) as { type?: unknown; subtype?: unknown };
    return v.type === 'system' && v.subtype === 'init';
  } catch {
    return false;
  }
}

/** Does a line start a Claude Code stream-json run (its `system` `init` record)? A line that is not JSON may be a damaged start: read. */
export function startsRun(text: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return true;
  }
  const o = v as { type?: unknown; subtype?: unknown } | null;
  return typeof o !== 'object' || o === null || (o.type === 'system' && o.subtype === 'init') || typeof o.type !== 'string';
}

export class PartitionSessions {
  readonly #partition: number;
  readonly #file: string;
  readonly #analyses: readonly Configured[];
  readonly #open = new Map<string, Open>();
  /** Sessions reported here lately: a later line of one is a continuation, not a replay. */
  readonly #reported = new RecentSet(REMEMBERED_SESSIONS);
  readonly #onContinued: (key: string, offset: number) => void;
  #next = -1;
  #skipped = 0;

  /** `file`: how diagnostics name the source, e.g. `kafka:runs/3`; `onContinued`: a line came for a session already reported. */
  constructor(partition: number, file: string, analyses: readonly Configured[], onContinued: (key: string, offset: number) => void = () => {}) {
    this.#partition = partition;
    this.#file = file;
    this.#analyses = analyses;
    this.#onContinued = onContinued;
  }

  /** Replayed tails skipped so far. */
  get skipped(): number {
    return this.#skipped;
  }

  get open(): number {
    return this.#open.size;
  }

  /** One message, in offset order; the session it ended, if it did. */
  message(key: string, value: string, offset: number, now: number): EndedSession | undefined {
    this.#next = offset + 1;
    let s = this.#open.get(key);
    // A run's start starts a session, even where a tail was being skipped.
    if (s && s.session === null && isInit(value)) s = undefined;
    if (!s) {
      const start = startsRun(value);
      if (!start) {
        this.#skipped++;
        if (this.#reported.has(key)) this.#onContinued(key, offset);
      }
      s = { session: start ? new LiveSession(key, `${this.#file}/${key}`, this.#analyses) : null, first: offset, last: offset, seenAt: now };
      this.#open.set(key, s);
    }
    s.last = offset;
    s.seenAt = now;
    if (s.session === null) {
      // A skipped tail ends with its result too.
      if (!startsRun(value) && /"type"\s*:\s*"result"/.test(value)) this.#open.delete(key);
      return undefined;
    }
    if (!s.session.line(value)) return undefined;
    this.#open.delete(key);
    this.#reported.add(key);
    return { key, partition: this.#partition, first: s.first, last: s.last, ending: 'result', report: s.session.end() };
  }

  /** Sessions no message has come for in `idleMs`: ended now. */
  idle(now: number, idleMs: number): EndedSession[] {
    const out: EndedSession[] = [];
    for (const [key, s] of this.#open) {
      if (now - s.seenAt < idleMs) continue;
      this.#open.delete(key);
      if (s.session) this.#reported.add(key);
      if (s.session) out.push({ key, partition: this.#partition, first: s.first, last: s.last, ending: 'idle', report: s.session.end(true) });
    }
    return out;
  }

  /**
   * The offset to commit: the first offset of the oldest session still being
   * read, or past the last message when none is. Undefined before any
   * message.
   */
  safeOffset(): number | undefined {
    if (this.#next < 0) return undefined;
    let min = this.#next;
    for (const s of this.#open.values()) if (s.session !== null && s.first < min) min = s.first;
    return min;
  }
}
