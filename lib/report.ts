// The JSON report: one envelope with a section per analysis, from which every
// sink renders. It is a contract (other tools and CI read it), published as a
// zod schema and a JSON Schema generated from it. It keeps per-session counts
// so that two reports merge exactly: merging the reports of single sessions
// gives the report of one pass over all of them.
import { z } from 'zod';
import { BUCKETS } from './sufficiency/reaction.js';
import type { SufficiencyCall, SufficiencyCounts } from './sufficiency/summary.js';
import { addCounts, emptyCounts, NOT_BUCKETED_REASONS } from './sufficiency/summary.js';
import type { StreamItem } from './items.js';

export const SCHEMA_VERSION = 1;
/** Diagnostic items kept in a report; `count` stays the true count. */
export const DIAGNOSTIC_ITEMS_CAP = 100;

const bucket = z.enum(BUCKETS);
const countsShape = {
  answered: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  unjudged: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  concurrent: z.number().int().nonnegative(),
  buckets: z.object(Object.fromEntries(BUCKETS.map((b) => [b, z.number().int().nonnegative()])) as Record<(typeof BUCKETS)[number], z.ZodNumber>),
};

export const sufficiencyCallSchema = z.object({
  id: z.string(),
  thread: z.string(),
  session: z.string(),
  query: z.string(),
  returned: z.array(z.string()),
  chars: z.number().int().nonnegative(),
  bucket: bucket.nullable(),
  next: z.string().nullable(),
  named: z.boolean().optional(),
  reason: z.enum(NOT_BUCKETED_REASONS).optional(),
});

export const sufficiencySectionSchema = z.object({
  probe: z.string(),
  ...countsShape,
  calls: z.array(sufficiencyCallSchema),
  bySession: z.array(z.object({ session: z.string(), ...countsShape })),
});

export const diagnosticItemSchema = z.object({
  code: z.string(),
  file: z.string(),
  line: z.number().int().nonnegative(),
  session: z.string(),
  message: z.string(),
});

export const diagnosticsSectionSchema = z.object({
  count: z.number().int().nonnegative(),
  unknownTypes: z.record(z.string(), z.number().int().positive()),
  items: z.array(diagnosticItemSchema),
});

export const reportSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  /** Sessions analysed, in the order they ended. */
  sessions: z.array(z.string()),
  /** Sessions met again after their first delivery (how many more times); not counted twice. */
  duplicateSessions: z.record(z.string(), z.number().int().positive()),
  sufficiency: sufficiencySectionSchema.optional(),
  diagnostics: diagnosticsSectionSchema,
});

export type Report = z.infer<typeof reportSchema>;
export type SufficiencySection = z.infer<typeof sufficiencySectionSchema>;
export type DiagnosticItem = z.infer<typeof diagnosticItemSchema>;

function countsOf(x: SufficiencyCounts): SufficiencyCounts {
  return { answered: x.answered, errors: x.errors, unjudged: x.unjudged, pending: x.pending, concurrent: x.concurrent, buckets: { ...x.buckets } };
}

function totals(bySession: ReadonlyArray<SufficiencyCounts>): SufficiencyCounts {
  return bySession.reduce<SufficiencyCounts>((acc, c) => addCounts(acc, c), emptyCounts());
}

export interface ReportOptions {
  /** The probe pattern; present means the sufficiency section is reported. */
  sufficiency?: { probe: string };
  /**
   * Keep every call for the report's `calls` list (default true). A reporter
   * that has already streamed them (ndjson) or never prints them says false,
   * and keeps nothing that grows with the transcript.
   */
  keepCalls?: boolean;
}

/** Collects a stream's report items and diagnostics into a Report. */
export class ReportBuilder {
  readonly #opts: ReportOptions;
  #sessions: string[] = [];
  #seen = new Set<string>();
  #duplicates: Record<string, number> = {};
  #dropping = false;
  #buffer: { seq: number; call: SufficiencyCall }[] = [];
  #calls: SufficiencyCall[] = [];
  #bySession: ({ session: string } & SufficiencyCounts)[] = [];
  #diagCount = 0;
  #unknownTypes: Record<string, number> = {};
  #items: DiagnosticItem[] = [];

  constructor(opts: ReportOptions) {
    this.#opts = opts;
  }

  add(item: StreamItem): void {
    switch (item.kind) {
      case 'diagnostic':
        if (item.code === 'unknown_type') {
          this.#unknownTypes[item.message] = (this.#unknownTypes[item.message] ?? 0) + 1;
          return;
        }
        this.#diagCount++;
        if (this.#items.length < DIAGNOSTIC_ITEMS_CAP) this.#items.push({ code: item.code, file: item.file, line: item.line, session: item.session, message: item.message });
        return;
      case 'session_end':
        this.#dropping = this.#seen.has(item.session);
        if (this.#dropping) this.#duplicates[item.session] = (this.#duplicates[item.session] ?? 0) + 1;
        else {
          this.#seen.add(item.session);
          this.#sessions.push(item.session);
        }
        return;
      case 'finding':
        if (this.#opts.keepCalls !== false) this.#buffer.push({ seq: item.seq, call: item.call });
        return;
      case 'summary':
        if (!this.#dropping) {
          this.#buffer.sort((a, b) => a.seq - b.seq);
          for (const b of this.#buffer) this.#calls.push(b.call);
          this.#bySession.push({ session: item.session, ...countsOf(item.counts) });
        }
        this.#buffer = [];
        return;
      default:
        return;
    }
  }

  build(): Report {
    const sufficiency: SufficiencySection | undefined = this.#opts.sufficiency
      ? { probe: this.#opts.sufficiency.probe, ...totals(this.#bySession), calls: [...this.#calls], bySession: this.#bySession.map((x) => ({ ...x, buckets: { ...x.buckets } })) }
      : undefined;
    return envelope(
      [...this.#sessions],
      sortedRecord(this.#duplicates),
      sufficiency,
      { count: this.#diagCount, unknownTypes: sortedRecord(this.#unknownTypes), items: [...this.#items] },
    );
  }
}

/** The report object with its keys in the documented order. */
function envelope(sessions: string[], duplicateSessions: Record<string, number>, sufficiency: SufficiencySection | undefined, diagnostics: Report['diagnostics']): Report {
  const r: Report = { schemaVersion: SCHEMA_VERSION, sessions, duplicateSessions } as Report;
  if (sufficiency) r.sufficiency = sufficiency;
  r.diagnostics = diagnostics;
  return r;
}

function addRecords(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}

function sortedRecord(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Exact and associative: sessions of `b` already in `a` count once (a's copy
 * wins); diagnostics add up, their items keep arrival order up to the cap.
 */
export function mergeReports(a: Report, b: Report): Report {
  const seen = new Set(a.sessions);
  const fresh = b.sessions.filter((s) => !seen.has(s));
  const duplicates = addRecords(a.duplicateSessions, b.duplicateSessions);
  for (const s of b.sessions) if (seen.has(s)) duplicates[s] = (duplicates[s] ?? 0) + 1;
  const sa = a.sufficiency;
  const sb = b.sufficiency;
  let sufficiency: SufficiencySection | undefined;
  if (sa || sb) {
    if (sa && sb && sa.probe !== sb.probe) throw new Error(`cannot merge sufficiency made with different probes (${sa.probe} and ${sb.probe})`);
    const keep = (s: string): boolean => !seen.has(s);
    const bySession = [...(sa?.bySession ?? []), ...(sb?.bySession ?? []).filter((x) => keep(x.session))];
    const calls = [...(sa?.calls ?? []), ...(sb?.calls ?? []).filter((c) => keep(c.session))];
    sufficiency = { probe: (sa ?? sb)!.probe, ...totals(bySession), calls, bySession };
  }
  return envelope([...a.sessions, ...fresh], sortedRecord(duplicates), sufficiency, {
    count: a.diagnostics.count + b.diagnostics.count,
    unknownTypes: sortedRecord(addRecords(a.diagnostics.unknownTypes, b.diagnostics.unknownTypes)),
    items: [...a.diagnostics.items, ...b.diagnostics.items].slice(0, DIAGNOSTIC_ITEMS_CAP),
  });
}
