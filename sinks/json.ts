// The whole report as one JSON document, written when the input ends. Long
// lists are written an element at a time: rendered as one string, the report
// of a 1 GB transcript (18 MB of JSON, two bytes per character once a `→` is
// in it) would briefly cost several times its size.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/index.js';
import type { SinkOptions } from './report-sink.js';
import { gathered, PIECE_CHARS, reportSink } from './report-sink.js';
import { jsonPrintable } from '../lib/core/escape.js';
import { isSpilledList } from '../lib/core/spilled-list.js';

/** Values this deep (the report 0, a section 1, a list in it 2) are written whole… */
const WHOLE_AT = 3;
/** …unless they hold a list this long: a section may be a list of sections (sufficiency's probes), each with its calls. */
const LONG_LIST = 64;

/** A list written an element at a time: an array, or one read back from a spill file (never whole in memory). */
const isList = (v: unknown): v is Iterable<unknown> & { length: number } => Array.isArray(v) || isSpilledList(v);
const isLongList = (v: unknown): boolean => isList(v) && v.length > LONG_LIST;

function isLeaf(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (isSpilledList(v)) return v.length === 0;
  if (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0) return true;
  if (depth < WHOLE_AT) return false;
  // A long list, or an object holding one, is written an element at a time at any depth.
  return !(isLongList(v) || (!Array.isArray(v) && Object.values(v).some(isLongList)));
}

/** `JSON.stringify(v, null, 2)` at `indent`, in pieces: containers opened, leaves whole. */
function* pretty(v: unknown, indent: string, depth: number): Generator<string> {
  if (isLeaf(v, depth)) {
    yield (JSON.stringify(v, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  let first = true;
  if (isList(v)) {
    yield '[';
    for (const x of v) {
      yield `${first ? '' : ','}\n${inner}`;
      first = false;
      yield* pretty(x === undefined || typeof x === 'function' ? null : x, inner, depth + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  yield '{';
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined || typeof x === 'function') continue;
    yield `${first ? '' : ','}\n${inner}${JSON.stringify(k)}: `;
    first = false;
    yield* pretty(x, inner, depth + 1);
  }
  yield `\n${indent}}`;
}

/** The report in pieces that concatenate to `JSON.stringify(report, null, 2)` plus a newline. */
export function* jsonChunks(report: Report, pieceChars = PIECE_CHARS): Generator<string> {
  yield* gathered(withNewline(pretty(report, '', 0)), pieceChars);
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield '\n';
}

/** The pieces as written: the same JSON, with no raw character a terminal would act on. */
function* printableChunks(report: Report): Generator<string> {
  for (const piece of jsonChunks(report)) yield jsonPrintable(piece);
}

export function renderJson(report: Report): string {
  return [...printableChunks(report)].join('');
}

export function json(opts: SinkOptions): Transform {
  return reportSink(opts, printableChunks);
}
