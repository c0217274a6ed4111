// The whole report as one JSON document, written when the input ends.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function json(opts: SinkOptions): Transform {
  return reportSink(opts, renderJson);
}
