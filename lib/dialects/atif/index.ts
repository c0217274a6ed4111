// ATIF: Harbor's trajectory.json (and any tool that writes the format).
import type { Dialect } from '../types.js';
import { AtifNormalizer, isAtifRecord } from './normalizer.js';
import { harborTrials } from './harbor-trials.js';

export const atifDialect: Dialect = {
  name: 'atif',
  // A trajectory's header, or a Harbor trial's result read before it (or alone).
  detect: isAtifRecord,
  create: () => new AtifNormalizer(),
  // A trajectory is one JSON document, pretty-printed: the built-in walker streams it (lib/dialects/record-document.ts).
  reads: 'document',
  documentKeys: ['schema_version'],
  // A Harbor job folder: each trial's result.json is its trajectory's outcome.
  companions: harborTrials,
};
