// A graph.json written before renamed tools were folded holds both names as
// nodes (`Task` and `Agent`). Read back, it is folded the way a build folds
// now — one node under the current name, counts summed, the more severe
// blast kept — so `diff` compares like with like instead of reporting a
// removed `Task` and newly seen edges into `Agent`.
import { byCodeUnit } from '../../core/canonical-json.js';
import { canonicalToolName, formerNames } from '../../core/tools.js';
import { blastRank } from './blast.js';
import type { Graph, GraphEdge, GraphNode, GraphTriple } from './document.js';

type Origin = GraphNode['catalog'][number];

const SEP = '\u0000';

function mergeNode(into: GraphNode, from: GraphNode, origins: readonly Origin[]): void {
  if (blastRank(from.blast) > blastRank(into.blast)) {
    into.blast = from.blast;
    into.blastSource = from.blastSource;
  }
  into.catalog = origins.filter((o) => into.catalog.includes(o) || from.catalog.includes(o));
  into.prodCount += from.prodCount;
  into.evalCount += from.evalCount;
  if (!into.annotations && from.annotations) into.annotations = from.annotations;
}

/** `g` with every former tool name folded into its current one; `g` itself when it has none. `origins`: catalog origins in order. */
export function foldRenamedTools(g: Graph, origins: readonly Origin[]): Graph {
  if (!g.nodes.some((n) => canonicalToolName(n.name) !== n.name)) return g;
  const nodes = new Map<string, GraphNode>();
  for (const n of g.nodes) {
    const name = canonicalToolName(n.name);
    const have = nodes.get(name);
    if (have) mergeNode(have, n, origins);
    else nodes.set(name, { ...n, name, catalog: [...n.catalog] });
  }
  for (const n of nodes.values()) {
    const aliases = formerNames(n.name);
    if (aliases.length > 0) n.aliases = [...aliases];
  }
  const edges = new Map<string, GraphEdge>();
  for (const e of g.edges) {
    const from = canonicalToolName(e.from);
    const to = canonicalToolName(e.to);
    const key = `${from}${SEP}${to}`;
    const have = edges.get(key);
    if (have) {
      have.prodCount += e.prodCount;
      have.evalCount += e.evalCount;
    } else edges.set(key, { ...e, from, to });
  }
  const triples = new Map<string, GraphTriple>();
  for (const t of g.triples) {
    const pred = canonicalToolName(t.pred);
    const tool = canonicalToolName(t.tool);
    const succ = canonicalToolName(t.succ);
    const key = `${pred}${SEP}${tool}${SEP}${succ}`;
    const have = triples.get(key);
    if (have) {
      have.prodCount += t.prodCount;
      have.evalCount += t.evalCount;
    } else triples.set(key, { ...t, pred, tool, succ });
  }
  const tools = [...nodes.values()].filter((n) => n.kind === 'tool').sort((a, b) => byCodeUnit(a.name, b.name));
  return {
    ...g,
    nodes: [...[...nodes.values()].filter((n) => n.kind !== 'tool'), ...tools],
    edges: [...edges.values()].sort((x, y) => byCodeUnit(x.from, y.from) || byCodeUnit(x.to, y.to)),
    triples: [...triples.values()].sort((x, y) => byCodeUnit(x.pred, y.pred) || byCodeUnit(x.tool, y.tool) || byCodeUnit(x.succ, y.succ)),
  };
}
