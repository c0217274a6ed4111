// Codex's child agents, read into the session that spawned them. A
// `spawn_agent` call (Codex's multi-agent tools) starts a thread of its own,
// written to a rollout file of its own beside the parent's
// (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, whose
// `session_meta` names the parent under `source.subagent.thread_spawn.
// parent_thread_id`); the call's output names the child's thread
// (`{"agent_id": "<thread id>", …}`). So the child's file is found by the id
// the output names, and read in just before that output, as Claude Code's
// subagent transcripts are read in before their call's result: a thread
// under the spawning call, its steps the child's.
import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { onDisk } from '../../core/on-disk.js';
import type { RawDiagnostic } from '../../core/records.js';
import type { CompanionFiles, CompanionRead, GivenCompanion, InputSession, Weave } from '../types.js';

/** `rollout-2026-02-23T20-34-25-<uuid>.jsonl`: the thread's id is the name's last 36 characters. */
const ROLLOUT = /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const SPAWN_CALL = /"type"\s*:\s*"function_call"[^\n]*"name"\s*:\s*"spawn_agent"|"name"\s*:\s*"spawn_agent"[^\n]*"type"\s*:\s*"function_call"/;
const CALL_ID = /"call_id"\s*:\s*"([^"\\]+)"/;
// Inside the output's JSON text, escaped once: \"agent_id\":\"<id>\".
const AGENT_ID = /\\?"agent_id\\?"\s*:\s*\\?"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
/** A session_meta line is read this far for its parent (its instructions can be tens of kilobytes). */
const HEAD_BYTES = 256 * 1024;

/** The thread id a rollout's name carries, if it is a rollout's name. */
export function rolloutThreadId(file: string): string | undefined {
  return ROLLOUT.exec(basename(file))?.[1]?.toLowerCase();
}

/** Rollout files' names by thread id, in `dir` (the day's folder Codex writes both parent and child in). */
async function rolloutsIn(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const id = rolloutThreadId(n);
    if (id !== undefined) out.set(id, n);
  }
  return out;
}

/** The folders a child of a session in `dir` may be in: its day's, and the next day's (a spawn after midnight). */
function dayFolders(dir: string): string[] {
  const m = /^(.*)[/\\](\d{4})[/\\](\d{2})[/\\](\d{2})$/.exec(dir);
  if (!m) return [dir];
  const next = new Date(Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]) + 1));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return [dir, join(m[1]!, String(next.getUTCFullYear()), pad(next.getUTCMonth() + 1), pad(next.getUTCDate()))];
}

/** The parent a rollout's session_meta names, from its first line. */
export async function parentOf(file: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await open(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    const head = buf.subarray(0, bytesRead);
    const nl = head.indexOf(0x0a);
    const v = JSON.parse(head.subarray(0, nl < 0 ? bytesRead : nl).toString('utf8')) as { type?: unknown; payload?: Record<string, unknown> };
    if (v.type !== 'session_meta' || typeof v.payload !== 'object' || v.payload === null) return undefined;
    const source = v.payload.source as { subagent?: { thread_spawn?: { parent_thread_id?: unknown } } } | undefined;
    const parent = source?.subagent?.thread_spawn?.parent_thread_id ?? v.payload.parent_thread_id;
    return typeof parent === 'string' ? parent.toLowerCase() : undefined;
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

class ChildWeave implements Weave {
  /** Child rollouts that may be read in, by thread id: looked for when the first spawn names one (most sessions spawn none). */
  #files: Map<string, string> | null = null;
  readonly #given: readonly GivenCompanion[];
  readonly #rescan: () => Promise<Map<string, string>>;
  /** Spawn calls seen, whose output may name a child. */
  readonly #spawns = new Set<string>();
  readonly #consumed = new Set<string>();

  constructor(given: readonly GivenCompanion[], rescan: () => Promise<Map<string, string>>) {
    this.#given = given;
    this.#rescan = rescan;
  }

  mayLink(bytes: Buffer): boolean {
    return this.#spawns.size > 0 && bytes.includes('agent_id');
  }

  #child(text: string): { call: string; id: string } | undefined {
    // Every line of the session passes here: most name no spawn and no pending child.
    if (this.#spawns.size === 0 && !text.includes('spawn_agent')) return undefined;
    if (SPAWN_CALL.test(text)) {
      const call = CALL_ID.exec(text)?.[1];
      if (call !== undefined) this.#spawns.add(call);
      return undefined;
    }
    if (!this.#spawns.size || !text.includes('function_call_output')) return undefined;
    const call = CALL_ID.exec(text)?.[1];
    if (call === undefined || !this.#spawns.has(call)) return undefined;
    const id = AGENT_ID.exec(text)?.[1]?.toLowerCase();
    return id === undefined ? undefined : { call, id };
  }

  outdated(text: string): boolean {
    const c = this.#child(text);
    if (c !== undefined) this.#spawns.add(c.call);
    return c !== undefined && !this.#files?.has(c.id);
  }

  async rediscover(): Promise<void> {
    this.#files = await this.#rescan();
  }

  link(text: string): readonly CompanionRead[] | undefined {
    const c = this.#child(text);
    if (c === undefined) return undefined;
    this.#spawns.delete(c.call);
    const file = this.#files?.get(c.id) ?? this.#given.find((g) => g.id === c.id)?.file;
    if (file === undefined || this.#consumed.has(file)) return undefined;
    return [{ file, thread: c.call, kind: 'subagent', spawnedBy: c.call }];
  }

  reading(file: string): void {
    this.#consumed.add(file);
  }

  /** Children given as inputs that no spawn output named: read last, as orphans. */
  async *unlinked(): AsyncGenerator<{ read: CompanionRead; said?: RawDiagnostic }> {
    for (const g of this.#given) {
      if (this.#consumed.has(g.file)) continue;
      yield {
        read: { file: g.file, thread: `agent-${g.id}`, kind: 'orphan', spawnedBy: null },
        said: {
          type: 'raw_diagnostic',
          code: 'codex_child_unlinked',
          file: g.file,
          line: 0,
          message: 'a child agent no spawn_agent output of this session names: read as an orphan thread',
        },
      };
    }
  }
}

export const codexChildren: CompanionFiles = {
  owns: () => false,

  async gather<S extends InputSession>(sessions: readonly S[], cwd: string | undefined): Promise<{ sessions: S[]; warnings: string[] }> {
    const byId = new Map<string, S>();
    for (const s of sessions) {
      const id = rolloutThreadId(s.key);
      if (id !== undefined) byId.set(id, s);
    }
    if (byId.size < 2) return { sessions: [...sessions], warnings: [] };
    // A child given beside its parent is read into it, not as a session of its own.
    const folded = new Map<S, GivenCompanion[]>();
    const gone = new Set<S>();
    for (const [id, s] of byId) {
      const parent = await parentOf(onDisk(s.key, cwd));
      const p = parent === undefined ? undefined : byId.get(parent);
      if (p === undefined || p === s) continue;
      gone.add(s);
      folded.set(p, [...(folded.get(p) ?? []), { file: s.key, id }]);
    }
    const out = sessions.filter((s) => !gone.has(s)).map((s) => (folded.has(s) ? { ...s, companions: [...(s.companions ?? []), ...folded.get(s)!] } : s));
    return { sessions: out, warnings: [] };
  },

  async discover(file, o) {
    if (rolloutThreadId(file) === undefined) return null;
    const dirs = dayFolders(dirname(file));
    const scan = async (): Promise<Map<string, string>> => {
      const found = new Map<string, string>();
      // Paths as given (reports show them so), read where they are.
      for (const d of dirs) for (const [id, n] of await rolloutsIn(onDisk(d, o.cwd))) if (!found.has(id)) found.set(id, join(d, n));
      for (const g of o.given) found.set(g.id, g.file);
      return found;
    };
    return new ChildWeave(o.given, scan);
  },
};
