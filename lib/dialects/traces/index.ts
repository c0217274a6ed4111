// The reference grader's traces.json: runs of steps, streamed run by run.
import type { Dialect } from '../types.js';
import { TracesNormalizer } from './normalizer.js';
import { TRACES_MARK, TracesWalker } from './document.js';

export const tracesDialect: Dialect = {
  name: 'traces',
  // Records streamed out of a traces.json document, or a whole one on one line.
  detect: (v) => TRACES_MARK in v || (typeof v.type !== 'string' && (Array.isArray(v.runs) || Array.isArray(v.tasks))),
  create: () => new TracesNormalizer(),
  reads: 'document',
  documentKeys: ['runs', 'tasks'],
  // The built-in walker of documents, OTLP span documents too (the first bytes do not say whose a document is): otel's dialect has none of its own.
  walker: (file) => new TracesWalker(file),
};
