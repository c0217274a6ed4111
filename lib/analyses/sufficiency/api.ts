// Sufficiency's building blocks (`agent-eval-stream/sufficiency`): the
// bucket rules for one reaction, and what a response returned.

// Needs @types/node, as every entry point does (see index.ts).
/// <reference types="node" preserve="true" />

export { classifyReaction, classifyRead, shortToolName, BUCKETS, BUCKET_TABLE } from './reaction.js';
export type { Bucket, Reaction, ProbeView } from './reaction.js';
export { returnedFiles, compileMarker, DEFAULT_MARKER } from './returned.js';
export { mentionedPaths } from './mentions.js';
export { sufficiencySectionSchema, sufficiencyCallSchema } from './report-section.js';
export type { SufficiencySection } from './report-section.js';
export type { SufficiencyCall, SufficiencyCounts, NotBucketedReason } from './summary.js';
export type { SufficiencyFinding, SufficiencySummary, SufficiencyItem } from './items.js';
