// OpenTelemetry GenAI spans: OTLP/JSON documents (or one request per line)
// and the Python SDK's span dump.
import type { Dialect } from '../types.js';
import { OtelNormalizer } from './normalizer.js';
import { OTEL_MARK } from './spans.js';

export const otelDialect: Dialect = {
  name: 'otel',
  // Traces the document walker assembled from spans.
  detect: (v) => OTEL_MARK in v,
  create: () => new OtelNormalizer(),
  reads: 'document',
  documentKeys: ['resourceSpans', 'spans'],
  // An OTLP request (or an SDK's span dump) on one line: its span ids must not pass through JSON.parse.
  documentPerLine: (v) => 'resourceSpans' in v || Array.isArray(v.spans),
};
