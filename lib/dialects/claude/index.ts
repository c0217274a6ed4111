// Claude Code: stream-json (`claude -p --output-format stream-json
// --verbose`), interactive session files, and their subagent files.
import type { Dialect } from '../types.js';
import { ClaudeNormalizer } from './normalizer.js';
import { claudeCompanions } from './companions.js';

export const claudeDialect: Dialect = {
  name: 'claude',
  detect: (v) => typeof v.type === 'string' && ('session_id' in v || 'sessionId' in v || 'message' in v),
  // Its two formats: session files name `sessionId`, stream-json `session_id`.
  sourceOf: (v) => ('sessionId' in v ? 'session' : 'stream-json'),
  create: () => new ClaudeNormalizer(),
  reads: 'lines',
  companions: claudeCompanions,
};
