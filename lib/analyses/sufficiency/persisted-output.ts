// Responses too large for the transcript. Claude Code writes a large tool
// result to `<project>/<session-id>/tool-results/<name>.txt` and puts in the
// transcript only a block that names the file and previews its first 2 KB
// (anthropics/claude-code#23948, 2026-02):
//
//   <persisted-output>
//   Output too large (4.8MB). Full output saved to: …/tool-results/<id>.txt
//
//   Preview (first 2KB):
//   …
//
// A probe is judged on the whole response, read from that file a chunk of
// lines at a time; never on the preview, which would invent misses.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ToolCallRef } from '../../core/events.js';
import type { ProbeSpec } from './profiles.js';

const BLOCK = /^\s*<persisted-output>/;
const SAVED_TO = /(?:Full output saved to|Output has been saved to):?\s*(\S[^\n]*?)\s*$/m;
/** Bytes read at a time: memory holds one chunk of the file, never the file. */
const CHUNK = 1 << 20;
/** A line this long is read as it is, cut: a file without newlines is still read a bounded piece at a time. */
const MAX_CARRY = 16 * CHUNK;

/** The file a `<persisted-output>` block names, or undefined when the text is no such block. */
export function persistedPath(text: string): string | undefined {
  if (!BLOCK.test(text)) return undefined;
  const m = SAVED_TO.exec(text.slice(0, 4096));
  return m ? m[1] : undefined;
}

/** The segments of a path written on any system (Claude Code on Windows writes `\`). */
function segments(p: string): string[] {
  return p.split(/[\\/]/);
}

/**
 * A name Claude Code gives a persisted result (`<tool-use-id>.txt`, or a
 * short random id). Nothing else is ever read: the block is the agent's
 * text, and a transcript naming `~/.ssh/id_rsa` must not put that file's
 * lines into a report as "returned" paths.
 */
const PERSISTED_NAME = /^[A-Za-z0-9_-]{1,128}\.txt$/;

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Where the persisted response is on this machine: the path the block names,
 * when it exists here; else beside the transcript, in the session's own
 * folder (`<session-id>/tool-results/`, as Claude Code keeps it) or in a
 * `tool-results/` folder next to a saved stream-json file.
 */
export function locatePersisted(named: string, transcript: string, session: string, cwd: string): string | undefined {
  const parts = segments(named);
  const name = parts.at(-1) ?? '';
  // Only a `.txt` of Claude Code's naming, in a `tool-results` folder where a path is given whole.
  if (!PERSISTED_NAME.test(name)) return undefined;
  const dir = dirname(resolve(cwd, transcript));
  const asNamed = isAbsolute(named) && parts.at(-2) === 'tool-results' ? [named] : [];
  const safeSession = /^[A-Za-z0-9_.-]+$/.test(session) && session !== '.' && session !== '..';
  const candidates = [...asNamed, ...(safeSession ? [join(dir, session, 'tool-results', name)] : []), join(dir, 'tool-results', name)];
  return candidates.find(isFile);
}

/** What a persisted response returned and names, and its length, as the probe's profile reads them. */
export interface PersistedResponse {
  readonly returned: readonly string[];
  readonly mentioned: readonly string[];
  readonly chars: number;
}

/**
 * Hands the file to `onPiece` a piece of whole lines at a time (about a
 * megabyte; a line longer than a piece is handed on with the next ones, up
 * to 16 MiB, then cut). False when the file cannot be read.
 */
export function readLinePieces(file: string, onPiece: (text: string) => void): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(CHUNK);
  let carry = '';
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const text = carry + decoder.write(buf.subarray(0, n));
      const cut = text.lastIndexOf('\n');
      if (cut === -1) {
        carry = text;
        if (carry.length > MAX_CARRY) {
          onPiece(carry);
          carry = '';
        }
        continue;
      }
      onPiece(text.slice(0, cut + 1));
      carry = text.slice(cut + 1);
    }
    const rest = carry + decoder.end();
    if (rest !== '') onPiece(rest);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * A persisted response as the probe's profile reads it: every profile reads
 * a response line by line (a section header, a listed path, a line of
 * links), so the pieces give what the whole text gives. Undefined when the
 * file cannot be read.
 */
export function readPersisted(file: string, spec: ProbeSpec, call: ToolCallRef): PersistedResponse | undefined {
  const returned: string[] = [];
  const mentioned = new Set<string>();
  let chars = 0;
  const ok = readLinePieces(file, (text) => {
    chars += text.length;
    for (const r of spec.returned(text, call)) returned.push(r);
    for (const m of spec.mentioned(text)) mentioned.add(m);
  });
  if (!ok) return undefined;
  // A listing names a file once; CodeGraph's sections count each time (the reference's `[N files]`).
  const all = spec.profile.name === 'codegraph' ? returned : [...new Set(returned)];
  return { returned: all, mentioned: [...mentioned], chars };
}
