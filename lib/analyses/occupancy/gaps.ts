// One context window's timeline, as gaps between its model requests. A
// request's context (input + cache reads + cache writes) is what the window
// held when it was sent; what was added between two requests — the earlier
// message's own blocks and the results that came back — is the gap, and the
// difference of the two contexts is what the window grew by. Kept per gap,
// never per event: memory is one small record per request of the thread.

/** Tool families, as the residual is reported. */
export const FAMILIES = ['codegraph', 'read', 'search', 'bash', 'other'] as const;
export type Family = (typeof FAMILIES)[number];

/** The family a tool's results count under. */
export function familyOf(tool: string): Family {
  if (/codegraph/.test(tool)) return 'codegraph';
  if (tool === 'Read' || tool === 'NotebookRead') return 'read';
  if (tool === 'Grep' || tool === 'Glob') return 'search';
  if (tool === 'Bash' || tool === 'BashOutput') return 'bash';
  return 'other';
}

export interface Gap {
  /** Every character added between the two requests. */
  readonly chars: number;
  /** Of them, tool results'. */
  readonly toolChars: number;
  /** Tool result characters per family, in the order the families first came. */
  readonly byFamily: ReadonlyMap<Family, number>;
  /** A compaction happened in it. */
  readonly compacted: boolean;
  /** Context of the later request minus the earlier one's. */
  readonly delta: number;
}

export interface Timeline {
  readonly gaps: readonly Gap[];
  /** The first request's context: system prompt, tool schemas and question, before any tool answered. */
  readonly ctxBase: number;
  /** The last request's context. */
  readonly ctxFinal: number;
  /** Requests (unique message ids). */
  readonly turns: number;
  readonly compactions: number;
  /** Every tool result's characters and count per family, after the last request too. */
  readonly chars: Readonly<Record<Family, number>>;
  readonly results: Readonly<Record<Family, number>>;
}

const zeros = (): Record<Family, number> => ({ codegraph: 0, read: 0, search: 0, bash: 0, other: 0 });

export class TimelineBuilder {
  readonly #gaps: Gap[] = [];
  #ctxBase: number | undefined;
  #ctxLast = 0;
  #turns = 0;
  #compactions = 0;
  readonly #chars = zeros();
  readonly #results = zeros();
  // The gap being filled, since the last request.
  #gapChars = 0;
  #gapToolChars = 0;
  #gapByFamily = new Map<Family, number>();
  #gapCompacted = false;

  /** A model request (a message id's first sighting), with the context it was sent with. */
  request(ctx: number): void {
    this.#turns++;
    if (this.#ctxBase === undefined) this.#ctxBase = ctx;
    else this.#gaps.push({ chars: this.#gapChars, toolChars: this.#gapToolChars, byFamily: this.#gapByFamily, compacted: this.#gapCompacted, delta: ctx - this.#ctxLast });
    this.#ctxLast = ctx;
    this.#gapChars = 0;
    this.#gapToolChars = 0;
    this.#gapByFamily = new Map();
    this.#gapCompacted = false;
  }

  /** Characters added to the window: a tool result's (its family given), or anything else's (null). */
  add(chars: number, family: Family | null): void {
    this.#gapChars += chars;
    if (family === null) return;
    this.#gapToolChars += chars;
    this.#gapByFamily.set(family, (this.#gapByFamily.get(family) ?? 0) + chars);
    this.#chars[family] += chars;
    this.#results[family]++;
  }

  compaction(): void {
    this.#compactions++;
    this.#gapCompacted = true;
  }

  build(): Timeline {
    return { gaps: this.#gaps, ctxBase: this.#ctxBase ?? 0, ctxFinal: this.#ctxLast, turns: this.#turns, compactions: this.#compactions, chars: { ...this.#chars }, results: { ...this.#results } };
  }
}
