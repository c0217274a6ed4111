// Codex CLI: rollout files (`~/.codex/sessions/…/rollout-*.jsonl`) and the
// `codex exec --json` stream.
import type { Dialect } from '../types.js';
import { CodexNormalizer, isExecRecord, isRolloutRecord } from './normalizer.js';
import { codexChildren } from './children.js';

export const codexDialect: Dialect = {
  name: 'codex',
  // `thread.started` opens every exec stream; a rollout's lines are `{timestamp, type, payload}`.
  detect: (v) => isRolloutRecord(v) || (isExecRecord(v) && v.type === 'thread.started'),
  sourceOf: (v) => (isRolloutRecord(v) ? 'codex-rollout' : 'codex-exec'),
  create: () => new CodexNormalizer(),
  reads: 'lines',
  // Child agents' rollouts, read in under the spawn_agent call that started them.
  companions: codexChildren,
};
