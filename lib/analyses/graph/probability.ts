// How likely production is to reach an edge or a tool, and the risk that
// follows (blast weight × probability). Every number says which rule made it:
//   prod_share   an edge seen in production: its share of the production
//                transitions out of its predecessor;
//   prod_in_edge a tool seen in production: the highest share among its
//                production in-edges;
//   sibling      a tool never seen: the highest in-edge share of a sibling
//                seen in production (same MCP server; else same blast class)
//                × similarityFactor;
//   floor        nothing to go on: the floor (never zero).
import type { Blast } from './blast.js';
import { effectiveBlast } from './blast.js';
import type { Graph, GraphEdge, GraphNode } from './document.js';
import { isPseudo } from './nodes.js';
import { byCodeUnit } from '../../core/canonical-json.js';

export const PROBABILITY_SOURCES = ['prod_share', 'prod_in_edge', 'sibling', 'floor'] as const;
export type ProbabilitySource = (typeof PROBABILITY_SOURCES)[number];

export interface Reach {
  readonly probability: number;
  readonly source: ProbabilitySource;
  /** For `sibling`: which sibling. */
  readonly via?: string;
}

export class GraphMetrics {
  readonly graph: Graph;
  readonly nodes = new Map<string, GraphNode>();
  readonly #outTotal = new Map<string, number>();
  readonly #bestIn = new Map<string, number>();
  readonly #toolReach = new Map<string, Reach>();

  constructor(graph: Graph) {
    this.graph = graph;
    for (const n of graph.nodes) this.nodes.set(n.name, n);
    for (const e of graph.edges) this.#outTotal.set(e.from, (this.#outTotal.get(e.from) ?? 0) + e.prodCount);
    for (const e of graph.edges) {
      const p = this.edgeShare(e);
      if (p > (this.#bestIn.get(e.to) ?? 0)) this.#bestIn.set(e.to, p);
    }
  }

  get floor(): number {
    return this.graph.settings.floor;
  }

  /** The edge's share of production transitions out of its predecessor (0 if never seen there). */
  edgeShare(e: Pick<GraphEdge, 'from' | 'prodCount'>): number {
    const total = this.#outTotal.get(e.from) ?? 0;
    return total === 0 ? 0 : e.prodCount / total;
  }

  /** An edge production never took has only the floor to go on. */
  edgeReach(e: Pick<GraphEdge, 'from' | 'prodCount'>): Reach {
    const p = this.edgeShare(e);
    return p > 0 ? { probability: p, source: 'prod_share' } : { probability: this.floor, source: 'floor' };
  }

  blastOf(name: string): Blast {
    return this.nodes.get(name)?.blast ?? 'unknown';
  }

  weight(b: Blast): number {
    return this.graph.settings.weights[effectiveBlast(b)];
  }

  risk(blast: Blast, probability: number): number {
    return this.weight(blast) * probability;
  }

  toolReach(name: string): Reach {
    let r = this.#toolReach.get(name);
    if (!r) this.#toolReach.set(name, (r = this.#computeToolReach(name)));
    return r;
  }

  #computeToolReach(name: string): Reach {
    const best = this.#bestIn.get(name) ?? 0;
    if (best > 0) return { probability: best, source: 'prod_in_edge' };
    const node = this.nodes.get(name);
    const server = node?.server;
    const cls = effectiveBlast(node?.blast ?? 'unknown');
    let via: string | undefined;
    let top = 0;
    for (const s of this.nodes.values()) {
      if (s.name === name || isPseudo(s.name) || s.prodCount === 0) continue;
      const sibling = server !== undefined ? s.server === server : s.server === undefined && effectiveBlast(s.blast) === cls;
      if (!sibling) continue;
      const p = this.#bestIn.get(s.name) ?? 0;
      if (p > top || (p === top && p > 0 && via !== undefined && byCodeUnit(s.name, via) < 0)) {
        top = p;
        via = s.name;
      }
    }
    if (top > 0 && via !== undefined) return { probability: top * this.graph.settings.similarityFactor, source: 'sibling', via };
    return { probability: this.floor, source: 'floor' };
  }
}
