// A tool's blast radius: how bad it is when it goes wrong. Decided by the
// strongest source that speaks (config > MCP annotations > Claude Code's
// built-ins > the Bash class table); a tool none of them knows is `unknown`,
// weighed as `write`, and listed so someone labels it.
import { BLAST_CLASSES } from './config.js';
import type { BlastClass } from './config.js';
import { BASH_PREFIX } from './nodes.js';
import { formerNames } from '../../core/tools.js';
import { Wildcard } from '../../core/wildcard.js';

export { BLAST_CLASSES };
export type { BlastClass };
export type Blast = BlastClass | 'unknown';
export const BLASTS = [...BLAST_CLASSES, 'unknown'] as const;
export const BLAST_SOURCES = ['config', 'annotations', 'builtin', 'bash', 'unknown', 'pseudo'] as const;
export type BlastSource = (typeof BLAST_SOURCES)[number];

export const DEFAULT_WEIGHTS: Readonly<Record<BlastClass, number>> = { read: 1, write: 3, external_side_effect: 6, irreversible: 10 };

/** What `unknown` is weighed and gated as. */
export function effectiveBlast(b: Blast): BlastClass {
  return b === 'unknown' ? 'write' : b;
}

export function blastRank(b: Blast): number {
  return BLAST_CLASSES.indexOf(effectiveBlast(b));
}

/** The two classes the backlog's first tier, the diff gate and the policy are about. */
export function isDangerous(b: Blast): boolean {
  const e = effectiveBlast(b);
  return e === 'external_side_effect' || e === 'irreversible';
}

// Claude Code's own tools (the `tools` of its init record, and the names in real sessions).
// Delegation is `read` itself: what the subagent does is its own path.
const BUILTIN: Readonly<Record<string, BlastClass>> = {
  Read: 'read',
  Grep: 'read',
  Glob: 'read',
  LS: 'read',
  NotebookRead: 'read',
  WebSearch: 'read',
  // A fetch only reads.
  WebFetch: 'read',
  TodoWrite: 'read',
  TodoRead: 'read',
  TaskCreate: 'read',
  TaskUpdate: 'read',
  TaskList: 'read',
  TaskGet: 'read',
  ExitPlanMode: 'read',
  EnterPlanMode: 'read',
  ToolSearch: 'read',
  AskUserQuestion: 'read',
  BashOutput: 'read',
  TaskOutput: 'read',
  Monitor: 'read',
  LSP: 'read',
  Skill: 'read',
  ListMcpResourcesTool: 'read',
  ReadMcpResourceTool: 'read',
  CronList: 'read',
  Task: 'read',
  Agent: 'read',
  Edit: 'write',
  Write: 'write',
  MultiEdit: 'write',
  NotebookEdit: 'write',
  KillShell: 'write',
  KillBash: 'write',
  TaskStop: 'write',
  EnterWorktree: 'write',
  ExitWorktree: 'write',
  TeamCreate: 'write',
  TeamDelete: 'write',
  // Reach people or services.
  SendMessage: 'external_side_effect',
  PushNotification: 'external_side_effect',
  RemoteTrigger: 'external_side_effect',
  CronCreate: 'external_side_effect',
  CronDelete: 'external_side_effect',
};

export function builtinBlast(name: string): BlastClass | undefined {
  return Object.hasOwn(BUILTIN, name) ? BUILTIN[name] : undefined;
}

/** MCP tool annotations; only hints given explicitly count (the protocol's defaults are guesses). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
  idempotentHint?: boolean;
}

export function annotationBlast(a: ToolAnnotations | undefined): BlastClass | undefined {
  if (!a || (typeof a.readOnlyHint !== 'boolean' && typeof a.destructiveHint !== 'boolean' && typeof a.openWorldHint !== 'boolean')) return undefined;
  if (a.readOnlyHint === true) return 'read';
  if (a.destructiveHint === true) return 'irreversible';
  if (a.openWorldHint === true) return 'external_side_effect';
  return 'write';
}

/** `catalog.blast`: an exact name beats a glob, a longer glob a shorter; between equals, the more severe. */
export class BlastPatterns {
  readonly #exact = new Map<string, BlastClass>();
  readonly #globs: { glob: string; re: Wildcard; blast: BlastClass }[] = [];

  constructor(patterns: Readonly<Record<string, BlastClass>> = {}) {
    for (const [p, b] of Object.entries(patterns)) {
      if (/[*?]/.test(p)) this.#globs.push({ glob: p, re: Wildcard.glob(p, { question: true }), blast: b });
      else this.#exact.set(p, b);
    }
    this.#globs.sort((a, b) => b.glob.length - a.glob.length || BLAST_CLASSES.indexOf(b.blast) - BLAST_CLASSES.indexOf(a.blast));
  }

  match(name: string): BlastClass | undefined {
    return this.matchAny([name]);
  }

  /** The label for a tool known by `names` (its name, then former names): an exact name over any glob. */
  matchAny(names: readonly string[]): BlastClass | undefined {
    for (const n of names) {
      const b = this.#exact.get(n);
      if (b) return b;
    }
    return this.#globs.find((g) => names.some((n) => g.re.matches(n)))?.blast;
  }
}

export interface BlastVerdict {
  readonly blast: Blast;
  readonly source: BlastSource;
}

/** A node's blast from the strongest source that knows it; a label for a tool's former name counts. */
export function resolveBlast(name: string, patterns: BlastPatterns, annotations: ToolAnnotations | undefined): BlastVerdict {
  const fromConfig = patterns.matchAny([name, ...formerNames(name)]);
  if (fromConfig) return { blast: fromConfig, source: 'config' };
  const fromAnnotations = annotationBlast(annotations);
  if (fromAnnotations) return { blast: fromAnnotations, source: 'annotations' };
  const fromBuiltin = builtinBlast(name);
  if (fromBuiltin) return { blast: fromBuiltin, source: 'builtin' };
  if (name.startsWith(BASH_PREFIX)) {
    const cls = name.slice(BASH_PREFIX.length);
    if ((BLAST_CLASSES as readonly string[]).includes(cls)) return { blast: cls as BlastClass, source: 'bash' };
  }
  return { blast: 'unknown', source: 'unknown' };
}
