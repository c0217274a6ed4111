// A tool result's content as the model read it: flattened to text the way
// the reference flattens it, and its length in characters, which a lazy
// parse keeps when it drops the text.
import { isObject } from '../../core/records.js';

/** Where a result's dropped text leaves its length, or null when nobody reads it (a symbol, not a JSON key: no input can forge it). */
export const SKIPPED_CHARS = Symbol('skippedChars');
/** On a tool_result block the lazy parse read as latin1: its text is bytes (`tool_result.bytes`). */
export const BYTE_TEXT = Symbol('byteText');

/**
 * The reference's flattening of a tool result: a string as is; an array joins
 * each part's `text` (or the part itself when a string, else its JSON) with
 * newlines, so a section that starts a later block still starts a line.
 */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return JSON.stringify(content);
  if (content.length === 1) return partText(content[0]);
  return content.map(partText).join('\n');
}

/**
 * The length of `flattenContent(content)`, without joining it: what a result
 * adds to the model's context, in characters, as the reference counts.
 * `length` counts one part (a lazy parse counts text decoded as latin1).
 */
export function flattenedLength(content: unknown, length: (s: string) => number = (s) => s.length): number {
  if (typeof content === 'string') return length(content);
  if (content === null || content === undefined) return 0;
  if (!Array.isArray(content)) return length(JSON.stringify(content) ?? '');
  let n = Math.max(0, content.length - 1);
  for (const p of content) n += length(partText(p));
  return n;
}

function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (isObject(p) && typeof p.text === 'string') return p.text;
  return JSON.stringify(p) ?? '';
}
