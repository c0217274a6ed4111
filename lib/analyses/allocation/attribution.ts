// Allocation efficiency (CodeGraph's CG-9): of the characters the probe
// responses returned, the share that belongs to files the final answer
// cites — by path, or by a symbol the file alone (or with one other) defines.
// Attribution is by citation, so the figure is relative: compare builds on
// the same question, not absolutes.
import { samePath, suffixKey } from '../../core/paths.js';
import type { Section } from './sections.js';
import type { Citations } from './citations.js';
import { answerCitations, extensionOf } from './citations.js';

/** A symbol defined in this many files or more names none of them. */
export const SYMBOL_AMBIGUITY_LIMIT = 3;

export type Via = 'path' | 'symbol' | null;

export interface ProbeResponse {
  /** The probe call's id. */
  readonly id: string;
  readonly sections: readonly Section[];
}

export interface CallAllocation {
  readonly id: string;
  /** Characters of its file sections. */
  readonly envelope: number;
  /** Of them, the cited files'. */
  readonly used: number;
  /** Of them, the files cited by path. */
  readonly usedPath: number;
  readonly files: number;
  readonly filesUsed: number;
}

export interface FileAllocation {
  readonly path: string;
  /** Its sections' characters over all responses (a file returned twice is charged twice). */
  readonly chars: number;
  readonly via: Via;
  /** The cited symbol that credited it (via `symbol`). */
  readonly symbol?: string;
}

export interface Allocation {
  readonly calls: CallAllocation[];
  /** Most characters first. */
  readonly files: FileAllocation[];
  readonly envelope: number;
  readonly used: number;
  readonly usedPath: number;
  readonly filesReturned: number;
  readonly filesUsed: number;
  /** The answer text is not blank: without one, efficiency is not meaningful. */
  readonly hasAnswer: boolean;
}

/** Per symbol name, the files that define it: strongly (a function, a class…) and weakly (a variable or constant). */
function owners(responses: readonly ProbeResponse[]): Map<string, ReadonlySet<string>> {
  const strong = new Map<string, Set<string>>();
  const weak = new Map<string, Set<string>>();
  for (const r of responses) {
    for (const s of r.sections) {
      for (const sym of s.symbols) {
        const by = sym.strong ? strong : weak;
        let set = by.get(sym.name);
        if (!set) by.set(sym.name, (set = new Set()));
        set.add(s.path);
      }
    }
  }
  const out = new Map<string, ReadonlySet<string>>(weak);
  for (const [name, set] of strong) out.set(name, set);
  return out;
}

/** How a file is credited: a cited path names it, or a cited symbol it owns (unambiguously enough). */
function verdict(path: string, cited: Citations, byKey: Map<string, string[]>, owned: Map<string, ReadonlySet<string>>): { via: Via; symbol?: string } {
  if (byKey.get(suffixKey(path))?.some((p) => samePath(p, path))) return { via: 'path' };
  for (const symbol of cited.symbols) {
    const set = owned.get(symbol);
    if (set && set.size < SYMBOL_AMBIGUITY_LIMIT && set.has(path)) return { via: 'symbol', symbol };
  }
  return { via: null };
}

/** Allocation over one thread's probe responses (in call order) and its final answer. */
export function computeAllocation(responses: readonly ProbeResponse[], answer: string): Allocation {
  const kept = responses.filter((r) => r.sections.length > 0);
  const extensions = new Set<string>();
  for (const r of kept) for (const s of r.sections) extensions.add(extensionOf(s.path));
  extensions.delete('');
  const cited = answerCitations(answer, extensions);
  const owned = owners(kept);
  // Cited paths by what samePath keeps equal: a file looks only at those that can match it.
  const byKey = new Map<string, string[]>();
  for (const p of cited.paths) {
    const k = suffixKey(p);
    const list = byKey.get(k);
    if (list) list.push(p);
    else byKey.set(k, [p]);
  }
  const verdicts = new Map<string, { via: Via; symbol?: string }>();
  const verdictOf = (path: string): { via: Via; symbol?: string } => {
    let v = verdicts.get(path);
    if (!v) verdicts.set(path, (v = verdict(path, cited, byKey, owned)));
    return v;
  };
  const pooled = new Map<string, number>();
  const calls: CallAllocation[] = [];
  let envelope = 0;
  let used = 0;
  let usedPath = 0;
  for (const r of kept) {
    const c = { id: r.id, envelope: 0, used: 0, usedPath: 0, files: r.sections.length, filesUsed: 0 };
    for (const s of r.sections) {
      const v = verdictOf(s.path);
      c.envelope += s.chars;
      if (v.via !== null) {
        c.used += s.chars;
        c.filesUsed++;
      }
      if (v.via === 'path') c.usedPath += s.chars;
      pooled.set(s.path, (pooled.get(s.path) ?? 0) + s.chars);
    }
    envelope += c.envelope;
    used += c.used;
    usedPath += c.usedPath;
    calls.push(c);
  }
  const files: FileAllocation[] = [...pooled].map(([path, chars]) => ({ path, chars, ...verdictOf(path) }));
  // Stable: files of equal size keep the order they were first returned in.
  files.sort((a, b) => b.chars - a.chars);
  return { calls, files, envelope, used, usedPath, filesReturned: files.length, filesUsed: files.filter((f) => f.via !== null).length, hasAnswer: answer.trim() !== '' };
}
