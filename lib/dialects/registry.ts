// Which normalizer reads a JSONL session: each source format registers a
// dialect that recognises its records. The first record one claims decides
// for the whole session; Claude Code's is the fallback, since it also
// tolerates (skips and counts) what it does not know.
import type { CanonicalEvent } from '../core/events.js';
import type { EventSink } from './claude/normalizer.js';
import { ClaudeNormalizer } from './claude/normalizer.js';
import { TracesNormalizer } from './traces/normalizer.js';
import { AuditNormalizer, isAuditRecord } from './audit/normalizer.js';
import { TRACES_MARK } from './traces/document.js';
import { OTEL_MARK } from './otel/spans.js';
import { OtelNormalizer } from './otel/normalizer.js';

export interface RecordNormalizer {
  record(v: Record<string, unknown>, line: number, sink: EventSink): void;
  /** True when the segment's last turn was closed by the format itself (a `result`); resets. */
  takeEndedByResult(): boolean;
  /** The session is over: emit whatever was held back (runs still open). */
  end?(sink: EventSink): void;
}

export interface Dialect {
  readonly name: string;
  /** The record belongs to this format. */
  detect(v: Record<string, unknown>): boolean;
  /** The `source` its events carry, decided per record. */
  sourceOf(v: Record<string, unknown>): CanonicalEvent['source'];
  create(): RecordNormalizer;
}

export const claudeDialect: Dialect = {
  name: 'claude',
  detect: (v) => typeof v.type === 'string' && ('session_id' in v || 'sessionId' in v || 'message' in v),
  sourceOf: (v) => ('sessionId' in v ? 'session' : 'stream-json'),
  create: () => new ClaudeNormalizer(),
};

export const tracesDialect: Dialect = {
  name: 'traces',
  // Records streamed out of a traces.json document, or a whole one on one line.
  detect: (v) => TRACES_MARK in v || (typeof v.type !== 'string' && (Array.isArray(v.runs) || Array.isArray(v.tasks))),
  sourceOf: () => 'traces',
  create: () => new TracesNormalizer(),
};

export const auditDialect: Dialect = {
  name: 'audit',
  detect: isAuditRecord,
  sourceOf: () => 'audit',
  create: () => new AuditNormalizer(),
};

export const otelDialect: Dialect = {
  name: 'otel',
  // Traces the document walker assembled from OpenTelemetry spans.
  detect: (v) => OTEL_MARK in v,
  sourceOf: () => 'otel',
  create: () => new OtelNormalizer(),
};

const DIALECTS: Dialect[] = [otelDialect, tracesDialect, auditDialect, claudeDialect];

/** Adds a format; later registrations are tried first. */
export function registerDialect(d: Dialect): void {
  DIALECTS.unshift(d);
}

export function dialectNamed(name: string): Dialect | undefined {
  return DIALECTS.find((d) => d.name === name);
}

export function detectDialect(v: Record<string, unknown>): Dialect | undefined {
  return DIALECTS.find((d) => d.detect(v));
}
