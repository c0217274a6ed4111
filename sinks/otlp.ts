// The report's verdicts as OpenTelemetry: one `gen_ai.evaluation.result`
// event per judged item, in OTLP/JSON, as the collector's file exporter
// writes it and its OTLP JSON file receiver reads it — one export request
// per line. Each analysis says what it judged (`render.evaluations`); this
// file only wraps them. An item judged on OpenTelemetry input carries the
// trace and span it judges, so a tracing backend shows it on that span.
import type { Transform } from 'node:stream';
import type { Report } from '../lib/report/index.js';
import type { Configured } from '../lib/analyses/types.js';
import type { Evaluation } from '../lib/core/evaluation.js';
import type { SinkOptions } from './report-sink.js';
import { reportSink } from './report-sink.js';
import { analysesOf } from '../lib/report/index.js';
import { jsonPrintable } from '../lib/core/escape.js';
import { packageVersion } from '../lib/core/version.js';
import { toLogRecord } from '../lib/dialects/otel/evaluation-records.js';
import type { EvaluationLogRecord } from '../lib/dialects/otel/evaluation-records.js';

export const OTLP_SERVICE = 'agent-eval-stream';
/** Log records per line: a large report is many requests of bounded size, none held whole. */
export const RECORDS_PER_REQUEST = 512;

/** Every evaluation of the report, analysis by analysis, in report order. */
export function* reportEvaluations(report: Report, analyses: readonly Configured[]): Generator<Evaluation> {
  for (const { analysis } of analyses) {
    const section = report[analysis.key];
    if (section !== undefined && analysis.render.evaluations) yield* analysis.render.evaluations(section);
  }
}

/** One OTLP/JSON ExportLogsServiceRequest holding `records`. */
export function logsRequest(records: readonly EvaluationLogRecord[], version = packageVersion()): string {
  if (records.length === 0) return JSON.stringify({ resourceLogs: [] });
  const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', OTLP_SERVICE), str('service.version', version)] },
        scopeLogs: [{ scope: { name: OTLP_SERVICE, version }, logRecords: records }],
      },
    ],
  });
}

/** The report as lines of OTLP/JSON; a report with nothing judged is one empty request, never an empty file. */
export function* otlpLines(report: Report, analyses: readonly Configured[], perRequest = RECORDS_PER_REQUEST): Generator<string> {
  let batch: EvaluationLogRecord[] = [];
  let wrote = false;
  for (const e of reportEvaluations(report, analyses)) {
    batch.push(toLogRecord(e));
    if (batch.length >= perRequest) {
      yield `${jsonPrintable(logsRequest(batch))}\n`;
      wrote = true;
      batch = [];
    }
  }
  if (batch.length || !wrote) yield `${jsonPrintable(logsRequest(batch))}\n`;
}

export function renderOtlp(report: Report, analyses: readonly Configured[]): string {
  return [...otlpLines(report, analyses)].join('');
}

export function otlp(opts: SinkOptions): Transform {
  const analyses = analysesOf(opts);
  return reportSink({ ...opts, analyses }, (r) => otlpLines(r, analyses));
}
