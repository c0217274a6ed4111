// Allocation's flag: the probe whose responses it weighs (with sufficiency
// too, the one --probe both read).
import type { Flags } from '../../core/flag-spec.js';
import { regexFlag } from '../../core/regex-source.js';
import type { FlagValues } from '../registration.js';
import { DEFAULT_PROBE } from '../sufficiency/probe-specs.js';

export const ALLOCATION_FLAGS = {
  probe: {
    type: 'string',
    metavar: 'REGEX',
    help: 'the probe tool whose returned characters the final answer may cite',
    defaultText: DEFAULT_PROBE,
    doc: "tool names that are the probe whose responses' characters the final answer may cite ([allocation.md](allocation.md))",
  },
} as const satisfies Flags;

export interface AllocationFlags {
  readonly probe?: string;
}

export function readAllocationFlags(values: FlagValues): AllocationFlags {
  return { probe: regexFlag('--probe', values.probe as string | undefined) };
}
