// Audit logs of tool calls (hooks, loggers): one JSON object per call.
import type { Dialect } from '../types.js';
import { AuditNormalizer, isAuditRecord } from './normalizer.js';

export const auditDialect: Dialect = {
  name: 'audit',
  detect: isAuditRecord,
  create: () => new AuditNormalizer(),
  reads: 'lines',
};
