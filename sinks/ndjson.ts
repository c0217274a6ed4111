// One line per finding the moment it is decided (a probe's verdict, a
// grading flag), one per graded run, then one summary line: what a consumer
// watching a live run reads.
import type { Transform } from 'node:stream';
import type { StreamItem } from '../lib/core/items.js';
import type { Report } from '../lib/report/report.js';
import { SCHEMA_VERSION } from '../lib/report/report.js';
import type { ReportBuilder } from '../lib/report/report.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { jsonPrintable } from '../lib/core/escape.js';

export function findingLine(item: StreamItem, builder?: ReportBuilder): string | undefined {
  // A session delivered twice is counted once; its second copy prints nothing.
  if ((item.kind === 'finding' || item.kind === 'run') && builder?.isDuplicate(item.session)) return undefined;
  if (item.kind === 'finding') {
    const body = item.analysis === 'sufficiency' ? item.call : { session: item.session, run: item.run, ...item.flag };
    return `${jsonPrintable(JSON.stringify({ type: 'finding', analysis: item.analysis, ...body }))}\n`;
  }
  if (item.kind === 'run') return `${jsonPrintable(JSON.stringify({ type: 'run', analysis: item.analysis, ...item.result }))}\n`;
  return undefined;
}

/** The summary line: the report's counts, without the lists already streamed. */
export function summaryLine(r: Report): string {
  const summary: Record<string, unknown> = { type: 'summary', schemaVersion: SCHEMA_VERSION, sessions: r.sessions.length, duplicateSessions: r.duplicateSessions };
  if (r.sufficiency) {
    const { calls: _calls, bySession: _bySession, ...counts } = r.sufficiency;
    summary.sufficiency = counts;
  }
  if (r.grade) {
    const { runs: _runs, patterns: _patterns, ...rest } = r.grade;
    summary.grade = rest;
  }
  summary.diagnostics = { count: r.diagnostics.count, unknownTypes: r.diagnostics.unknownTypes };
  summary.inputErrors = r.inputErrors;
  summary.exitCode = r.exitCode;
  return `${jsonPrintable(JSON.stringify(summary))}\n`;
}

export function ndjson(opts: SinkOptions): Transform {
  return reportSink({ ...opts, keepCalls: false }, summaryLine, findingLine);
}
