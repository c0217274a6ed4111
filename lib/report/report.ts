// The JSON report: one envelope with a section per analysis, from which every
// sink renders. It is a contract (other tools and CI read it), published as a
// zod schema and a JSON Schema generated from it. What it keeps is per
// session, so two reports merge exactly: merging the reports of single
// sessions gives the report of one pass over all of them.
import { z } from 'zod';
import type { StreamItem, PatternStat } from '../core/items.js';
import type { SufficiencyCall, SufficiencyCounts } from '../analyses/sufficiency/summary.js';
import type { SufficiencySection } from '../analyses/sufficiency/report-section.js';
import { copyCounts, sufficiencySectionSchema, totals } from '../analyses/sufficiency/report-section.js';
import type { GradeReportOptions, GradeSection } from '../analyses/grade/report-section.js';
import { addPatternStats, gradeSection, gradeSectionSchema } from '../analyses/grade/report-section.js';
import type { RunResult } from '../analyses/grade/verdicts.js';
import { exitCodeFor } from './exit-code.js';
import { addTokens, emptyTokens } from '../analyses/usage/token-counts.js';
import { mergeUnknownTypes, UnknownTypeCounts } from './unknown-types.js';
import { append } from '../core/arrays.js';

export const SCHEMA_VERSION = 2;
/** Diagnostic items kept in a report; `count` stays the true count. */
export const DIAGNOSTIC_ITEMS_CAP = 100;

export { sufficiencySectionSchema, gradeSectionSchema };
export { OTHER_UNKNOWN_TYPES, UNKNOWN_TYPES_CAP } from './unknown-types.js';
export type { SufficiencySection, GradeSection };

export const diagnosticItemSchema = z.object({
  code: z.string(),
  file: z.string(),
  line: z.number().int().nonnegative(),
  session: z.string(),
  message: z.string(),
});

export const inputErrorSchema = z.object({ file: z.string(), message: z.string() });

const tokenCounts = z.object({
  messages: z.number().int().nonnegative(),
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheCreation: z.number().nonnegative(),
});

/** Token totals, each message counted once with its last usage; per session and thread. */
export const tokensSectionSchema = z.object({
  total: tokenCounts,
  bySession: z.array(z.object({ session: z.string(), total: tokenCounts, byThread: z.record(z.string(), tokenCounts) })),
});

export type TokensSection = z.infer<typeof tokensSectionSchema>;

export const reportSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  /** Sessions analysed, in the order they ended. */
  sessions: z.array(z.string()),
  /** Sessions met again after their first delivery (how many more times); not counted twice. */
  duplicateSessions: z.record(z.string(), z.number().int().positive()),
  sufficiency: sufficiencySectionSchema.optional(),
  grade: gradeSectionSchema.optional(),
  tokens: tokensSectionSchema,
  diagnostics: z.object({
    count: z.number().int().nonnegative(),
    unknownTypes: z.record(z.string(), z.number().int().positive()),
    items: z.array(diagnosticItemSchema),
  }),
  /** Inputs that could not be read or hold no transcript (each makes the exit code 2). */
  inputErrors: z.array(inputErrorSchema),
  /** What a careful reader should know about the inputs: files skipped, why nothing counted. */
  warnings: z.array(z.string()),
  /** The process's exit code, computed from this report alone. */
  exitCode: z.number().int(),
});

export type Report = z.infer<typeof reportSchema>;
export type DiagnosticItem = z.infer<typeof diagnosticItemSchema>;
export type InputErrorItem = z.infer<typeof inputErrorSchema>;

export interface ReportOptions {
  /** The probe pattern; present means the sufficiency section is reported. */
  sufficiency?: { probe: string };
  /** Present means the grade section is reported. */
  grade?: GradeReportOptions;
  /**
   * Keep every call and every flag for the report's lists (default true). A
   * reporter that has already streamed them (ndjson) or never prints them
   * says false and keeps only what its summary needs.
   */
  keepCalls?: boolean;
  /** Filled while the run reads: inputs that could not be read. */
  inputErrors?: InputErrorItem[];
  /** Filled while the run reads: warnings about the inputs. */
  warnings?: string[];
}

function sortedRecord<V>(r: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Counts added key by key. Keys come from the input, so they live in a Map: `__proto__` is a key like any other. */
function addCounts(into: Map<string, number>, from: Record<string, number>): Map<string, number> {
  for (const [k, v] of Object.entries(from)) into.set(k, (into.get(k) ?? 0) + v);
  return into;
}

/** A run as the lean builder keeps it: no more than the gate's reasons need. */
function lean(r: RunResult): RunResult {
  return { ...r, stepsByThread: {}, flags: r.flags.filter((f) => f.severity === 'high') };
}

interface Parts {
  sessions: string[];
  duplicates: Record<string, number>;
  sufficiency?: { probe: string; calls: SufficiencyCall[]; bySession: ({ session: string } & SufficiencyCounts)[] };
  grade?: { opts: GradeReportOptions; runs: RunResult[]; patterns: Record<string, PatternStat>; misses: string[] };
  tokens: TokensSection['bySession'];
  diagnostics: Report['diagnostics'];
  inputErrors: InputErrorItem[];
  warnings: string[];
  /** `--outcomes` ids that may match no run. */
  outcomeIds?: Iterable<string>;
}

/** The report object, its keys in the documented order, derived parts computed. */
function assemble(p: Parts): Report {
  const r = { schemaVersion: SCHEMA_VERSION, sessions: p.sessions, duplicateSessions: sortedRecord(p.duplicates) } as Report;
  if (p.sufficiency) r.sufficiency = { probe: p.sufficiency.probe, ...totals(p.sufficiency.bySession), calls: p.sufficiency.calls, bySession: p.sufficiency.bySession };
  if (p.grade) r.grade = gradeSection(p.grade.opts, p.grade.runs, p.grade.patterns, p.grade.misses, p.inputErrors.length, p.outcomeIds);
  r.tokens = { total: p.tokens.map((t) => t.total).reduce(addTokens, emptyTokens()), bySession: p.tokens };
  r.diagnostics = p.diagnostics;
  r.inputErrors = p.inputErrors;
  r.warnings = p.warnings;
  // Grading that graded nothing fails closed, like an unreadable input.
  const nothingGraded = r.grade !== undefined && r.grade.runs.length === 0;
  r.exitCode = exitCodeFor({ inputErrors: p.inputErrors.length + (nothingGraded ? 1 : 0), gateFailed: r.grade?.gate.failed ?? false });
  return r;
}

/** Collects a stream's report items and diagnostics into a Report. */
export class ReportBuilder {
  readonly #opts: ReportOptions;
  readonly #keep: boolean;
  #sessions: string[] = [];
  #seen = new Set<string>();
  #duplicates = new Map<string, number>();
  /** Sessions cut short by a followed file's restart, with their pattern counts: a re-read replaces them. */
  #replaceable = new Map<string, Record<string, PatternStat>>();
  #dropping = false;
  /** The current session's session_end has passed (its last items may still come). */
  #ended = false;
  #callBuffer: { seq: number; call: SufficiencyCall }[] = [];
  #calls: SufficiencyCall[] = [];
  #bySession: ({ session: string } & SufficiencyCounts)[] = [];
  #runBuffer: RunResult[] = [];
  #runs: RunResult[] = [];
  #patterns: Record<string, PatternStat> = {};
  #misses: string[] = [];
  #tokens: TokensSection['bySession'] = [];
  #diagCount = 0;
  #unknownTypes = new UnknownTypeCounts();
  #items: DiagnosticItem[] = [];
  /** Input errors found in the stream itself (a file that holds no transcript). */
  #inputErrors: InputErrorItem[] = [];

  constructor(opts: ReportOptions) {
    this.#opts = opts;
    this.#keep = opts.keepCalls !== false;
  }

  add(item: StreamItem): void {
    switch (item.kind) {
      case 'diagnostic':
        if (item.code === 'unknown_type') {
          this.#unknownTypes.add(item.message);
          return;
        }
        this.#diagCount++;
        if (this.#items.length < DIAGNOSTIC_ITEMS_CAP) this.#items.push({ code: item.code, file: item.file, line: item.line, session: item.session, message: item.message });
        return;
      case 'input_error':
        this.#inputErrors.push({ file: item.file, message: item.message });
        return;
      case 'session_start':
        this.#ended = false;
        return;
      case 'session_end':
        this.#ended = true;
        if (this.#replaceable.has(item.session)) this.#forget(item.session);
        if (item.restarted === true) this.#replaceable.set(item.session, {});
        this.#dropping = this.#seen.has(item.session);
        if (this.#dropping) this.#duplicates.set(item.session, (this.#duplicates.get(item.session) ?? 0) + 1);
        else {
          this.#seen.add(item.session);
          this.#sessions.push(item.session);
        }
        return;
      case 'finding':
        if (item.analysis === 'sufficiency' && this.#keep) this.#callBuffer.push({ seq: item.seq, call: item.call });
        return;
      case 'run':
        this.#runBuffer.push(this.#keep ? item.result : lean(item.result));
        return;
      case 'summary':
        // A session's items are committed at its summary, once it is known not to be a duplicate.
        if (item.analysis === 'sufficiency') {
          if (!this.#dropping) {
            this.#callBuffer.sort((a, b) => a.seq - b.seq);
            for (const b of this.#callBuffer) this.#calls.push(b.call);
            this.#bySession.push({ session: item.session, ...copyCounts(item.counts) });
          }
          this.#callBuffer = [];
        } else if (item.analysis === 'grade') {
          if (this.#dropping) this.#runs = preferKnownOutcome(this.#runs, item.session, this.#runBuffer);
          else {
            append(this.#runs, this.#runBuffer);
            this.#patterns = addPatternStats(this.#patterns, item.patterns);
            if (this.#replaceable.has(item.session)) this.#replaceable.set(item.session, item.patterns);
            append(this.#misses, item.taskPatternMisses);
          }
          this.#runBuffer = [];
        } else if (!this.#dropping) this.#tokens.push({ session: item.session, total: item.total, byThread: item.byThread });
        return;
      default:
        return;
    }
  }

  /** A session read again after its followed file restarted: the first, partial copy goes. */
  #forget(session: string): void {
    const patterns = new Map(Object.entries(this.#replaceable.get(session) ?? {}));
    this.#replaceable.delete(session);
    this.#seen.delete(session);
    this.#sessions = this.#sessions.filter((s) => s !== session);
    this.#calls = this.#calls.filter((c) => c.session !== session);
    this.#bySession = this.#bySession.filter((b) => b.session !== session);
    this.#runs = this.#runs.filter((r) => r.session !== session);
    this.#tokens = this.#tokens.filter((t) => t.session !== session);
    this.#patterns = Object.fromEntries(Object.entries(this.#patterns).map(([k, v]) => [k, { exact: v.exact - (patterns.get(k)?.exact ?? 0), folded: v.folded - (patterns.get(k)?.folded ?? 0) }]));
  }

  /** An item of a session delivered a second time in this stream. */
  isDuplicate(session: string): boolean {
    // After its session_end, the verdict is made; before it, a session of that id has ended already.
    return this.#ended ? this.#dropping : this.#seen.has(session);
  }

  build(): Report {
    const o = this.#opts;
    return assemble({
      sessions: [...this.#sessions],
      duplicates: Object.fromEntries(this.#duplicates),
      sufficiency: o.sufficiency ? { probe: o.sufficiency.probe, calls: [...this.#calls], bySession: this.#bySession.map((x) => ({ ...x, buckets: { ...x.buckets } })) } : undefined,
      grade: o.grade ? { opts: o.grade, runs: [...this.#runs], patterns: { ...this.#patterns }, misses: [...this.#misses] } : undefined,
      tokens: [...this.#tokens],
      diagnostics: { count: this.#diagCount, unknownTypes: this.#unknownTypes.toRecord(), items: [...this.#items] },
      inputErrors: [...(o.inputErrors ?? []), ...this.#inputErrors],
      warnings: [...(o.warnings ?? [])],
      outcomeIds: o.grade?.outcomeRuns,
    });
  }
}

/**
 * A session met twice (its stream-json and its session file) counts once, as
 * its first copy — unless only the other copy knows whether the run
 * delivered (stream-json's result does, a session file does not): then its
 * runs are the ones kept, whatever order the inputs came in.
 */
export function preferKnownOutcome(runs: RunResult[], session: string, again: readonly RunResult[]): RunResult[] {
  const kept = runs.filter((r) => r.session === session);
  if (!again.some((r) => r.delivered !== null) || kept.some((r) => r.delivered !== null)) return runs;
  return [...runs.filter((r) => r.session !== session), ...again];
}

/** a's runs, then b's of new sessions; a session in both keeps a's copy unless only b's knows the outcome. */
function mergedRuns(a: readonly RunResult[], b: readonly RunResult[], isNew: (session: string) => boolean): RunResult[] {
  let runs = [...a, ...b.filter((r) => isNew(r.session))];
  for (const session of new Set(b.map((r) => r.session))) {
    if (!isNew(session)) runs = preferKnownOutcome(runs, session, b.filter((r) => r.session === session));
  }
  return runs;
}

/**
 * Exact and associative: sessions of `b` already in `a` count once (a's copy
 * wins, bar a known outcome: preferKnownOutcome); diagnostics add up, their
 * items keep arrival order up to the cap.
 */
export function mergeReports(a: Report, b: Report): Report {
  const seen = new Set(a.sessions);
  const keep = (s: string): boolean => !seen.has(s);
  const duplicates = addCounts(addCounts(new Map(), a.duplicateSessions), b.duplicateSessions);
  for (const s of b.sessions) if (seen.has(s)) duplicates.set(s, (duplicates.get(s) ?? 0) + 1);
  const sa = a.sufficiency;
  const sb = b.sufficiency;
  if (sa && sb && sa.probe !== sb.probe) throw new Error(`cannot merge sufficiency made with different probes (${sa.probe} and ${sb.probe})`);
  const ga = a.grade;
  const gb = b.grade;
  const g = ga ?? gb;
  return assemble({
    sessions: [...a.sessions, ...b.sessions.filter(keep)],
    duplicates: Object.fromEntries(duplicates),
    sufficiency:
      sa || sb
        ? {
            probe: (sa ?? sb)!.probe,
            calls: [...(sa?.calls ?? []), ...(sb?.calls ?? []).filter((c) => keep(c.session))],
            bySession: [...(sa?.bySession ?? []), ...(sb?.bySession ?? []).filter((x) => keep(x.session))],
          }
        : undefined,
    grade: g
      ? {
          opts: { config: g.config, verified: g.verified, failOn: g.failOn },
          runs: mergedRuns(ga?.runs ?? [], gb?.runs ?? [], keep),
          patterns: addPatternStats(ga?.patterns ?? {}, gb?.patterns ?? {}),
          misses: [...(ga?.taskPatternMisses ?? []), ...(gb?.taskPatternMisses ?? [])],
        }
      : undefined,
    tokens: [...a.tokens.bySession, ...b.tokens.bySession.filter((t) => keep(t.session))],
    diagnostics: {
      count: a.diagnostics.count + b.diagnostics.count,
      unknownTypes: mergeUnknownTypes(a.diagnostics.unknownTypes, b.diagnostics.unknownTypes),
      items: [...a.diagnostics.items, ...b.diagnostics.items].slice(0, DIAGNOSTIC_ITEMS_CAP),
    },
    inputErrors: [...a.inputErrors, ...b.inputErrors],
    warnings: [...a.warnings, ...b.warnings.filter((w) => !a.warnings.includes(w))],
    // An id unmatched in one report may name a run of the other.
    outcomeIds: [...(ga?.unmatchedOutcomes ?? []), ...(gb?.unmatchedOutcomes ?? [])],
  });
}
