// The whole report as one JSON document, written when the input ends. The
// per-call list is written one call at a time: rendered as one string, the
// report of a 1 GB transcript (18 MB of JSON, two bytes per character once a
// `→` is in it) would briefly cost several times its size.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/report.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { jsonPrintable } from '../lib/core/escape.js';

const HOLE = '\u0000calls\u0000';

/** The report in pieces that concatenate to `JSON.stringify(report, null, 2)` plus a newline. */
export function* jsonChunks(report: Report): Generator<string> {
  const calls = report.sufficiency?.calls;
  if (!calls || calls.length === 0) {
    yield `${JSON.stringify(report, null, 2)}\n`;
    return;
  }
  const shell = JSON.stringify({ ...report, sufficiency: { ...report.sufficiency, calls: [HOLE] } }, null, 2);
  const marker = `      ${JSON.stringify(HOLE)}`;
  const at = shell.indexOf(marker);
  yield shell.slice(0, at);
  for (let i = 0; i < calls.length; i++) {
    const body = JSON.stringify(calls[i], null, 2).replace(/\n/g, '\n      ');
    yield `${i === 0 ? '' : ',\n'}      ${body}`;
  }
  yield `${shell.slice(at + marker.length)}\n`;
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
