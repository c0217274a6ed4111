// One line per finding the moment it is decided, then one summary line:
// what a consumer watching a live run reads.
import type { Transform } from 'node:stream';
import type { StreamItem } from '../lib/items.js';
import type { Report } from '../lib/report.js';
import { SCHEMA_VERSION } from '../lib/report.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';

export function findingLine(item: StreamItem): string | undefined {
  if (item.kind !== 'finding') return undefined;
  return `${JSON.stringify({ type: 'finding', analysis: item.analysis, ...item.call })}\n`;
}

/** The summary line: the report's counts, without the per-call lists. */
export function summaryLine(r: Report): string {
  const summary: Record<string, unknown> = { type: 'summary', schemaVersion: SCHEMA_VERSION, sessions: r.sessions.length };
  if (r.sufficiency) {
    const { calls: _calls, bySession: _bySession, ...counts } = r.sufficiency;
    summary.sufficiency = counts;
  }
  summary.diagnostics = { count: r.diagnostics.count, unknownTypes: r.diagnostics.unknownTypes };
  return `${JSON.stringify(summary)}\n`;
}

export function ndjson(opts: SinkOptions): Transform {
  return reportSink({ ...opts, keepCalls: false }, summaryLine, findingLine);
}
