// The report: its schema, its builder from a stream, and the merge of two.
export { reportSchema, reportSchemaFor, SCHEMA_VERSION, DIAGNOSTIC_ITEMS_CAP, diagnosticItemSchema, inputErrorSchema } from './schema.js';
export type { Report, ReportEnvelope, DiagnosticItem, InputErrorItem } from './schema.js';
export { ReportBuilder, analysesOf } from './builder.js';
export type { ReportOptions } from './builder.js';
export { mergeReports, mergeReportsOf } from './merge.js';
export { OTHER_UNKNOWN_TYPES, UNKNOWN_TYPES_CAP } from './unknown-types.js';
