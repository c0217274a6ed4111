// The action graph's counts, from canonical events: per thread, consecutive
// calls make edges (`START → first`, …, `last → END`) and triples; calls of
// one assistant message count in the order written (their arrival order).
// State is one small window per open thread plus the graph itself; a
// session's counts are merged when it ends, so a session read twice (its
// stream-json and its session file) counts once.
import type { CanonicalEvent } from '../../core/events.js';
import type { StreamItem } from '../../core/items.js';
import { END, START, nodeOfCall, nodesOfCatalogName } from './nodes.js';

export type Side = 'prod' | 'eval';

/** Production and eval counts of a node, edge or triple. */
export interface Counts {
  prod: number;
  eval: number;
}

const SEP = '\u0000';

export function edgeKey(from: string, to: string): string {
  return `${from}${SEP}${to}`;
}

export function tripleKey(pred: string, tool: string, succ: string): string {
  return `${pred}${SEP}${tool}${SEP}${succ}`;
}

export function splitKey(key: string): string[] {
  return key.split(SEP);
}

interface ThreadWindow {
  /** The last two nodes of the path so far (`prev` may be START). */
  prev: string | null;
  last: string;
}

class SessionTally {
  readonly nodes = new Map<string, number>();
  readonly edges = new Map<string, number>();
  readonly triples = new Map<string, number>();
  readonly catalog = new Map<string, Set<string>>();
  readonly threads = new Map<string, ThreadWindow>();
  readonly internal = new Set<string>();
  calls = 0;
}

function bump(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

function addInto(target: Map<string, Counts>, from: Map<string, number>, side: Side): void {
  for (const [k, n] of from) {
    let c = target.get(k);
    if (!c) target.set(k, (c = { prod: 0, eval: 0 }));
    c[side] += n;
  }
}

export interface SideTotals {
  sessions: number;
  calls: number;
}

export class GraphAccumulator {
  readonly nodes = new Map<string, Counts>();
  readonly edges = new Map<string, Counts>();
  readonly triples = new Map<string, Counts>();
  /** Catalog names met in the traces, with where each came from (`init`, `deferred` …). */
  readonly catalog = new Map<string, Set<string>>();
  readonly totals: Record<Side, SideTotals> = { prod: { sessions: 0, calls: 0 }, eval: { sessions: 0, calls: 0 } };
  readonly #seen: Record<Side, Set<string>> = { prod: new Set(), eval: new Set() };
  readonly #open = new Map<string, SessionTally>();

  /** Counts one event of `side`'s traces. */
  add(ev: StreamItem, side: Side): void {
    switch (ev.kind) {
      case 'session_start':
        this.#tally(ev.session);
        this.#catalog(ev.session, ev.tools, 'init');
        return;
      case 'catalog_add':
        this.#catalog(ev.session, ev.tools, ev.origin);
        return;
      case 'thread_open':
        if (ev.threadKind === 'internal') this.#tally(ev.session).internal.add(ev.thread);
        return;
      case 'tool_call':
        this.#call(ev);
        return;
      case 'thread_close':
        this.#close(this.#tally(ev.session), threadKey(ev));
        return;
      case 'run_end': {
        // A run's paths end with it (traces and spans reuse thread names across runs).
        const t = this.#tally(ev.session);
        const prefix = `${ev.run}${SEP}`;
        for (const k of [...t.threads.keys()]) if (k.startsWith(prefix)) this.#close(t, k);
        return;
      }
      case 'session_end':
        this.#endSession(ev, side);
        return;
      default:
        return;
    }
  }

  #tally(session: string): SessionTally {
    let t = this.#open.get(session);
    if (!t) this.#open.set(session, (t = new SessionTally()));
    return t;
  }

  #catalog(session: string, tools: readonly string[], origin: string): void {
    const t = this.#tally(session);
    for (const name of tools)
      for (const node of nodesOfCatalogName(name)) {
        let s = t.catalog.get(node);
        if (!s) t.catalog.set(node, (s = new Set()));
        s.add(origin);
      }
  }

  #call(ev: Extract<CanonicalEvent, { kind: 'tool_call' }>): void {
    const t = this.#tally(ev.session);
    if (t.internal.has(ev.thread)) return;
    const node = nodeOfCall(ev.name, ev.input);
    const key = threadKey(ev);
    const w = t.threads.get(key);
    t.calls++;
    bump(t.nodes, node);
    if (!w) {
      bump(t.edges, edgeKey(START, node));
      t.threads.set(key, { prev: START, last: node });
      return;
    }
    bump(t.edges, edgeKey(w.last, node));
    if (w.prev !== null) bump(t.triples, tripleKey(w.prev, w.last, node));
    w.prev = w.last;
    w.last = node;
  }

  #close(t: SessionTally, key: string): void {
    const w = t.threads.get(key);
    if (!w) return;
    t.threads.delete(key);
    bump(t.edges, edgeKey(w.last, END));
    if (w.prev !== null) bump(t.triples, tripleKey(w.prev, w.last, END));
  }

  #endSession(ev: Extract<CanonicalEvent, { kind: 'session_end' }>, side: Side): void {
    const t = this.#tally(ev.session);
    this.#open.delete(ev.session);
    // A stopped read did not see its paths end.
    if (!ev.stopped) for (const k of [...t.threads.keys()]) this.#close(t, k);
    if (this.#seen[side].has(ev.session)) return;
    this.#seen[side].add(ev.session);
    this.totals[side].sessions++;
    this.totals[side].calls += t.calls;
    addInto(this.nodes, t.nodes, side);
    addInto(this.edges, t.edges, side);
    addInto(this.triples, t.triples, side);
    for (const [name, origins] of t.catalog) {
      let s = this.catalog.get(name);
      if (!s) this.catalog.set(name, (s = new Set()));
      for (const o of origins) s.add(o);
    }
  }
}

function threadKey(ev: { run?: string | undefined; thread: string }): string {
  return `${ev.run ?? ''}${SEP}${ev.thread}`;
}
