// Delegations resolved to the subagent's first call, as a stage (logic: lib/core/delegation.ts).
import type { Transform } from 'node:stream';
import { objectStage } from '../lib/core/stage.js';
import { DelegationResolver } from '../lib/core/delegation.js';

export function delegation(): Transform {
  return objectStage(new DelegationResolver());
}
