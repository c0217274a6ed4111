// Trajectory grading as a stage: every run becomes steps graded by the rules
// of lib/analyses/grade/run-grader.ts; flags go out as findings when decided, each run
// with its verdict when it ends, and one summary per session.
//
// A run is a Claude Code session (stream-json or session file, all its
// segments), or an explicit run of traces.json or an audit log (run_start …
// run_end, several to a file, interleaved in audit logs).
import type { CanonicalEvent, EventOf, ThreadKind } from '../../core/events.js';
import type { StreamItem } from '../../core/items.js';
import { isAnalysisItem } from '../../core/items.js';
import type { PatternStat } from './items.js';
import { gradeFinding, gradeResult, gradeSummary } from './items.js';
import type { Push, StageLogic } from '../../core/stage.js';
import type { GradeOptions } from './options.js';
import { allPatterns } from './options.js';
import type { ToolPattern } from '../../permissions/tool-pattern.js';
import type { Flag, Observes } from './run-grader.js';
import { RunGrader } from './run-grader.js';
import type { RunResult } from './verdicts.js';
import { verdictOf } from './verdicts.js';
import { SUBAGENTS_MISSING } from '../../core/missing-subagents.js';
import { nearestTool } from './near-tools.js';

const CLAUDE_OBSERVES: Observes = { outcomes: true, reads: true };

export class Grader implements StageLogic<StreamItem, StreamItem> {
  readonly #o: GradeOptions;
  readonly #patterns: ToolPattern[];
  // Keyed by input (pattern sources, thread names): Maps, so `__proto__` is a key like any other.
  #stats = new Map<string, PatternStat>();
  #misses: string[] = [];
  // The session being read.
  #file = '';
  #source = '';
  #claude: RunGrader | null = null;
  /**
   * Explicit runs by id, oldest first: two runs of a traces document may share
   * an id, and the first one's end can be held (its task named after it) while
   * the second is read. Events go to the newest; an end finishes the oldest.
   */
  #explicit = new Map<string, RunGrader[]>();
  /** Every thread the session opened: internal ones are not graded, and runs' threads are labelled at their end. */
  #threadKinds = new Map<string, ThreadKind>();
  #maxSegment = 0;
  #segmentsWithResult = new Set<number>();
  #resultsOk = true;
  /** What the session's results said about how it ended, for its run. */
  #ending: RunEnding = {};
  /** MCP calls awaiting their result (id → tool), and the MCP tools that have answered: a cold start shows as a first call refused. */
  #mcpCalls = new Map<string, string>();
  #mcpAnswered = new Set<string>();
  /** An API failure not yet followed by a reply of the agent's: the run's end, if nothing follows. */
  #apiFailure: string | undefined;
  /** Subagents the session's results name and the input does not hold (lib/core/missing-subagents.ts). */
  #missingSubagents = 0;
  /** The tool names the session knew, announced (its catalog) or called: what a rule's tool name may be a typo of. */
  #toolNames = new Set<string>();

  constructor(options: GradeOptions) {
    this.#o = options;
    this.#patterns = allPatterns(options);
  }

  step(ev: StreamItem, push: Push<StreamItem>): void {
    push(ev);
    if (isAnalysisItem(ev)) return;
    const flag = (run: string) => (f: Flag) => push(gradeFinding(ev.session, run, f));
    switch (ev.kind) {
      case 'session_start':
        this.#reset(ev);
        this.#knowTools(ev.tools);
        return;
      case 'catalog_add':
        this.#knowTools(ev.tools);
        return;
      case 'thread_open':
        this.#threadKinds.set(ev.thread, ev.threadKind);
        return;
      case 'run_start': {
        const g = new RunGrader(ev.run, this.#o, ev.observes, ev.span, this.#earlyTask());
        const same = this.#explicit.get(ev.run);
        if (same) same.push(g);
        else this.#explicit.set(ev.run, [g]);
        return;
      }
      case 'tool_call': {
        if (ev.thread === 'main') this.#apiFailure = undefined;
        if (ev.name.startsWith('mcp__') && this.#mcpCalls.size < MAX_OPEN_MCP_CALLS) this.#mcpCalls.set(ev.id, ev.name);
        // Claude Code's own helper agents are reported, not graded.
        if (this.#threadKinds.get(ev.thread) === 'internal') return;
        const g = this.#route(ev);
        this.#count(ev);
        this.#knowTools([ev.name]);
        g.call(ev, flag(g.run));
        return;
      }
      case 'tool_result': {
        this.#mcpResult(ev);
        const g = this.#route(ev);
        g.result(ev, flag(g.run));
        return;
      }
      case 'thread_close':
        if (ev.run === undefined) this.#claude?.closeThread(ev.thread, flag(this.#claude.run));
        else this.#explicit.get(ev.run)?.at(-1)?.threadUsageEnds(ev.thread);
        return;
      case 'turn_end':
        this.#segment(ev);
        if (ev.reason === 'result' || ev.reason === 'segment_end') this.#claude?.usageTurnEnds();
        // A result alone is no run: `--output-format json` prints only that.
        if (ev.reason === 'result') {
          this.#segmentsWithResult.add(ev.segment);
          if (ev.outcome?.subtype !== 'success' || ev.outcome.isError) this.#resultsOk = false;
          if (ev.outcome) this.#ending = addEnding(this.#ending, ev.outcome);
        }
        return;
      case 'run_end': {
        const same = this.#explicit.get(ev.run);
        const g = same?.shift();
        if (!g) return;
        if (!same!.length) this.#explicit.delete(ev.run);
        // A verifier's reward decides by the configured threshold, not the source's default.
        const delivered = ev.reward !== undefined && ev.infra === undefined ? ev.reward >= this.#o.rewardThreshold : ev.delivered;
        this.#finish(g, ev.session, ev.task, delivered, push, g.run, {
          ...(ev.reward !== undefined ? { reward: ev.reward } : {}),
          ...(ev.infra !== undefined ? { infra: ev.infra } : {}),
        });
        return;
      }
      case 'session_end':
        this.#sessionEnd(ev, push);
        return;
      case 'assistant_text':
        // A session that says anything is a run, even one without a tool call.
        this.#route(ev);
        if (ev.thread === 'main') this.#apiFailure = undefined;
        return;
      case 'diagnostic':
        // Its results name subagents the input does not hold: the session's run is judged on the rest.
        if (ev.code === SUBAGENTS_MISSING) this.#missingSubagents = ev.count ?? 0;
        if (ev.thread === 'main' && API_FAILURES.has(ev.code))
          this.#apiFailure = ev.code === 'api_error_message' ? 'the API failed: its error is the reply' : 'the API failed: its retries ran out';
        return;
      case 'usage':
        this.#route(ev).usage(ev);
        return;
      case 'reported_usage':
        // The session's run, once it is one: a result alone is no run (see turn_end).
        this.#claude?.reportedUsage(ev);
        return;
      default:
        this.#segment(ev);
    }
  }

  #reset(ev: CanonicalEvent): void {
    this.#file = ev.file;
    this.#source = ev.source;
    this.#claude = null;
    this.#explicit.clear();
    this.#threadKinds.clear();
    this.#maxSegment = ev.segment;
    this.#segmentsWithResult.clear();
    this.#resultsOk = true;
    this.#ending = {};
    this.#apiFailure = undefined;
    this.#missingSubagents = 0;
    this.#stats = new Map();
    this.#toolNames.clear();
    this.#misses = [];
    this.#mcpCalls.clear();
    this.#mcpAnswered.clear();
  }

  /**
   * An MCP tool whose first calls were refused as "No such tool available"
   * was called before its server had started (a cold start): the run is
   * marked, as the CodeGraph evaluation's parser marks it.
   */
  #mcpResult(ev: EventOf<'tool_result'>): void {
    const tool = this.#mcpCalls.get(ev.id);
    if (tool === undefined) return;
    this.#mcpCalls.delete(ev.id);
    if (!ev.isError) this.#mcpAnswered.add(tool);
    else if (!this.#mcpAnswered.has(tool) && NO_SUCH_TOOL.test(ev.text)) {
      const cold = (this.#ending.mcpColdStart ??= []);
      if (!cold.includes(tool) && cold.length < MAX_COLD_TOOLS) cold.push(tool);
    }
  }

  #segment(ev: CanonicalEvent): void {
    if (ev.segment > this.#maxSegment) this.#maxSegment = ev.segment;
    this.#source = ev.source;
  }

  /** The run an event belongs to: its explicit run, else the session's. */
  #route(ev: CanonicalEvent): RunGrader {
    this.#segment(ev);
    if (ev.run !== undefined) {
      const same = this.#explicit.get(ev.run);
      const last = same?.[same.length - 1];
      if (last) return last;
      const g = new RunGrader(ev.run, this.#o, CLAUDE_OBSERVES, undefined, this.#earlyTask());
      this.#explicit.set(ev.run, [g]);
      return g;
    }
    this.#claude ??= new RunGrader(ev.session, this.#o, CLAUDE_OBSERVES, undefined, this.#earlyTask());
    return this.#claude;
  }

  /** Statistics for near-miss warnings: exact matches, and matches ignoring case. */
  #count(ev: EventOf<'tool_call'>): void {
    const call = { id: ev.id, name: ev.name, input: ev.input, thread: ev.thread, cwd: ev.cwd };
    for (const p of this.#patterns) {
      let s = this.#stats.get(p.source);
      if (!s) this.#stats.set(p.source, (s = { exact: 0, folded: 0 }));
      if (p.matches(call)) s.exact++;
      else if (p.matches(call, true)) s.folded++;
    }
  }

  #knowTools(names: readonly string[]): void {
    for (const n of names) if (this.#toolNames.size < MAX_KNOWN_TOOLS) this.#toolNames.add(n);
  }

  /** Rules that matched no call of the session: the tool name each was likely meant to name, if its own is a typo. */
  #nearestTools(): void {
    for (const p of this.#patterns) {
      const s = this.#stats.get(p.source);
      if (s !== undefined && s.exact > 0) continue;
      const nearest = nearestTool(p.source, this.#toolNames);
      if (nearest === undefined) continue;
      if (s !== undefined) s.nearest = nearest;
      else this.#stats.set(p.source, { exact: 0, folded: 0, nearest });
    }
  }

  #sessionEnd(ev: EventOf<'session_end'>, push: Push<StreamItem>): void {
    for (const same of this.#explicit.values()) for (const g of same) this.#finish(g, ev.session, undefined, null, push);
    this.#explicit.clear();
    const g = this.#claude;
    if (g) {
      // stream-json: delivered when every segment ended in a successful result.
      // A session file has no result: unknown unless --outcomes says.
      let delivered: boolean | null = null;
      // An API request that failed for good, with no reply after it: the provider's failure.
      if (this.#apiFailure !== undefined) this.#ending.infra ??= this.#apiFailure;
      if (this.#source === 'stream-json' && !(ev.stopped && this.#segmentsWithResult.size === 0)) {
        delivered = this.#segmentsWithResult.size === this.#maxSegment && this.#resultsOk;
        // A run that wrote no result at all was cut off (a crash, a killed process): not the agent's answer.
        if (this.#segmentsWithResult.size === 0) this.#ending.infra ??= 'no result: the run ended without one';
      }
      // The session's id is final only now: before the first record naming it, it was the path.
      this.#finish(g, ev.session, undefined, delivered, push, ev.session);
    }
    this.#nearestTools();
    push(gradeSummary(ev.session, Object.fromEntries(this.#stats), this.#misses));
  }

  /** The task of every run of this session, when it is known before any run ends: `--task`, or `--task-pattern` on the path. */
  #earlyTask(): string | undefined {
    if (this.#o.task !== undefined) return this.#o.task;
    const m = this.#o.taskPattern?.exec(this.#file);
    return m ? (m[1] ?? m[0]) : undefined;
  }

  #taskFor(run: string, sourceTask: string | undefined): string {
    const early = this.#earlyTask();
    if (early !== undefined) return early;
    if (this.#o.taskPattern) {
      if (!this.#misses.includes(this.#file)) this.#misses.push(this.#file);
      return run;
    }
    return sourceTask ?? run;
  }

  #finish(
    g: RunGrader,
    session: string,
    sourceTask: string | undefined,
    delivered: boolean | null,
    push: Push<StreamItem>,
    runId = g.run,
    said: Pick<RunResult, 'reward' | 'infra'> = {},
  ): void {
    const task = this.#taskFor(runId, sourceTask);
    if (g === this.#claude && this.#missingSubagents > 0) g.subagentsMissing();
    g.finish((f) => push(gradeFinding(session, runId, f)), task);
    const threads = new Map<string, ThreadKind>();
    for (const t of g.threads) if (t !== 'main') threads.set(t, this.#threadKinds.get(t) ?? 'subagent');
    // Claude Code's helper agents belong to the session: listed with its run, not graded.
    if (g === this.#claude) for (const [t, k] of this.#threadKinds) if (k === 'internal') threads.set(t, k);
    const outcome = this.#o.outcomes?.get(runId);
    const d = outcome ?? delivered;
    const result: RunResult = {
      run: runId,
      task,
      session,
      source: this.#source,
      delivered: d,
      verdict: verdictOf(d, g.flags),
      steps: g.steps,
      ...(g.longestFailStreak !== undefined ? { failStreak: g.longestFailStreak } : {}),
      stepsByThread: Object.fromEntries(g.stepsByThread),
      ...(threads.size ? { threads: Object.fromEntries(threads) } : {}),
      flags: g.flags,
      notEvaluated: g.notEvaluated,
      ...(g.span !== undefined ? { span: g.span } : {}),
      ...(g.used ? { usage: g.used } : {}),
      ...said,
      ...(g === this.#claude ? this.#ending : {}),
      ...(g === this.#claude && this.#missingSubagents > 0 ? { missingSubagents: this.#missingSubagents } : {}),
    };
    push(gradeResult(session, result));
  }
}

const NO_SUCH_TOOL = /No such tool available/;
/** Tool names a session's catalog and calls may add to what rules are checked against (a catalog is hundreds, not millions). */
const MAX_KNOWN_TOOLS = 4096;
/** MCP calls followed at once; past this many awaiting a result, later ones are not (a run that never answers keeps no more). */
const MAX_OPEN_MCP_CALLS = 4096;
const MAX_COLD_TOOLS = 20;

/** Diagnostics of an API request that failed for good (lib/dialects/claude). */
const API_FAILURES: ReadonlySet<string> = new Set(['api_retries_exhausted', 'api_error_message']);

/** Why a result says the run failed outside the agent's control, if it does. */
function infraReason(o: NonNullable<EventOf<'turn_end'>['outcome']>): string | undefined {
  if (o.apiErrorStatus !== undefined) return `API error ${o.apiErrorStatus}`;
  if (o.terminalReason === 'api_error') return 'API error';
  if (o.subtype === 'success' && o.isError) return 'a success result marked is_error (a usage limit or a rate limit)';
  return undefined;
}

/** How a run ended, from its results: the last reason, its first errors, the refused calls. */
type RunEnding = Pick<RunResult, 'terminalReason' | 'errors' | 'permissionDenials' | 'infra' | 'mcpColdStart'>;

/** Errors kept per run: a run resumed in a loop can end in thousands of results. */
const MAX_RUN_ERRORS = 20;
const MAX_REASON_CHARS = 200;

/** `a` updated in place with one more result's outcome. */
function addEnding(a: RunEnding, o: NonNullable<EventOf<'turn_end'>['outcome']>): RunEnding {
  if (o.terminalReason !== undefined) a.terminalReason = o.terminalReason.slice(0, MAX_REASON_CHARS);
  // Failures outside the agent, as Claude Code 2.1.x writes them: an API error
  // that ended the run, or a "success" that is an error (a session limit, HTTP 429).
  const infra = infraReason(o);
  if (infra !== undefined) a.infra = infra;
  for (const e of o.errors ?? []) {
    if ((a.errors ??= []).length >= MAX_RUN_ERRORS) break;
    a.errors.push(e);
  }
  if (o.permissionDenials !== undefined) a.permissionDenials = (a.permissionDenials ?? 0) + o.permissionDenials;
  return a;
}
