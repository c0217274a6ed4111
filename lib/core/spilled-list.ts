// Lists a report keeps until the input ends (every probe call, in the order
// made) without keeping them in memory: each item is kept as its JSON text,
// and past a size those texts are written to a spill file, a line each, and
// read back, an item at a time, when the report is written. Memory is then
// bounded by that size, not by the length of the transcript. An item must
// survive a JSON round trip unchanged (plain objects, arrays, strings,
// finite numbers, booleans and null; no undefined values).
import { SpillFile } from './spill-file.js';
import type { FileRange, OnUnwritable } from './spill-file.js';

/** Where, and past how much text in memory, lists are spilled. */
export interface SpillOptions {
  /**
   * About how many characters of items a list keeps as objects before it
   * turns to JSON texts and the spill file (default 8 Mi): below that,
   * nothing is serialised, which costs time (about a tenth of a run whose
   * report lists every call).
   */
  readonly after?: number;
  /** Characters of JSON a spilling list keeps in memory before it writes them out (default 1 Mi). */
  readonly chars?: number;
  /** The folder the spill file is made in (default: the system's temporary folder). */
  readonly dir?: string;
  /** Told when that folder takes no file (missing, read-only): the lists are then kept in memory. */
  readonly onUnwritable?: OnUnwritable;
}

export const DEFAULT_SPILL_CHARS = 1 << 20;
export const DEFAULT_SPILL_AFTER = 8 << 20;

/** One file for every list of a report, made when the first list spills. */
export class SpillStore {
  readonly after: number;
  readonly chars: number;
  readonly #dir: string | undefined;
  readonly #onUnwritable: OnUnwritable | undefined;
  #file: SpillFile | undefined;
  #closed = false;

  constructor(o: SpillOptions = {}) {
    this.after = Math.max(0, o.after ?? DEFAULT_SPILL_AFTER);
    this.chars = Math.max(1, o.chars ?? DEFAULT_SPILL_CHARS);
    this.#dir = o.dir;
    this.#onUnwritable = o.onUnwritable;
  }

  get file(): SpillFile {
    // A list read or pushed to after close() would find nothing, or leave a file nobody removes.
    if (this.#closed) throw new Error('spill store used after close()');
    return (this.#file ??= new SpillFile(this.#dir, this.#onUnwritable));
  }

  close(): void {
    this.#closed = true;
    this.#file?.close();
    this.#file = undefined;
  }
}

/**
 * A list in the order pushed, each item kept as its JSON text (a fraction
 * of an object's size, and nothing for the garbage collector to trace), the
 * first ones on disk once the text in memory passes the store's size.
 * Iterate it (or `JSON.stringify` it: `toJSON` reads it whole) once the
 * pushes are done.
 */
export class SpilledList<T> implements Iterable<T> {
  readonly #store: SpillStore;
  readonly #ranges: FileRange[] = [];
  #tail: string[] = [];
  #tailChars = 0;
  #length = 0;

  constructor(store: SpillStore) {
    this.#store = store;
  }

  get length(): number {
    return this.#length;
  }

  /** Appends an item given as its JSON text (one line: JSON.stringify's). */
  pushJson(json: string): void {
    this.#tail.push(json);
    this.#tailChars += json.length;
    this.#length++;
    if (this.#tailChars >= this.#store.chars) {
      const r = this.#store.file.append(this.#tail);
      const last = this.#ranges.at(-1);
      // Stretches written back to back are one range (another list's writes may come between).
      if (last !== undefined && last.end === r.start) this.#ranges[this.#ranges.length - 1] = { start: last.start, end: r.end };
      else this.#ranges.push(r);
      this.#tail = [];
      this.#tailChars = 0;
    }
  }

  /** The items' JSON texts, in order. */
  *jsonLines(): Generator<string> {
    for (const r of this.#ranges) yield* this.#store.file.lines(r);
    yield* this.#tail;
  }

  *[Symbol.iterator](): Generator<T> {
    for (const line of this.jsonLines()) yield JSON.parse(line) as T;
  }

  /** The items that pass `keep`, as a new list in the same store. */
  filter(keep: (x: T) => boolean): SpilledList<T> {
    const out = new SpilledList<T>(this.#store);
    for (const line of this.jsonLines()) if (keep(JSON.parse(line) as T)) out.pushJson(line);
    return out;
  }

  toJSON(): T[] {
    return [...this];
  }
}

/** Is `v` a SpilledList (written as the array it holds)? */
export function isSpilledList(v: unknown): v is SpilledList<unknown> {
  return v instanceof SpilledList;
}

/**
 * JSON texts that come nearly in order of a number (a session's probe
 * calls, by when each was made, as they are decided) and are taken in that
 * order once all have come: sorted runs of about the store's size are
 * written out (a line each: the number, a space, the text), and merged when
 * drained. Ties keep the order pushed.
 */
export class SortedRuns {
  readonly #store: SpillStore;
  #buffer: Array<readonly [number, string]> = [];
  #chars = 0;
  #runs: FileRange[] = [];

  constructor(store: SpillStore) {
    this.#store = store;
  }

  push(key: number, json: string): void {
    this.#buffer.push([key, json]);
    this.#chars += json.length;
    if (this.#chars >= this.#store.chars) {
      this.#runs.push(this.#store.file.append(keyedLines(this.#sorted())));
      this.#buffer = [];
      this.#chars = 0;
    }
  }

  /** Every text pushed since the last drain, in order of its number; then none. */
  *drain(): Generator<string> {
    const last = this.#sorted();
    const runs = this.#runs;
    this.discard();
    if (runs.length === 0) {
      for (const [, json] of last) yield json;
      return;
    }
    const file = this.#store.file;
    const sources: Iterator<readonly [number, string]>[] = runs.map((r) => keyed(file.lines(r)));
    sources.push(last[Symbol.iterator]());
    for (const [, json] of mergeByKey(sources)) yield json;
  }

  /** Forgets every text pushed since the last drain. */
  discard(): void {
    this.#buffer = [];
    this.#chars = 0;
    this.#runs = [];
  }

  #sorted(): Array<readonly [number, string]> {
    return this.#buffer.sort((a, b) => a[0] - b[0]);
  }
}

function* keyedLines(entries: Iterable<readonly [number, string]>): Generator<string> {
  for (const [k, json] of entries) yield `${k} ${json}`;
}

function* keyed(lines: Iterable<string>): Generator<readonly [number, string]> {
  for (const line of lines) {
    const sp = line.indexOf(' ');
    yield [Number(line.slice(0, sp)), line.slice(sp + 1)];
  }
}

/** Sorted sources merged into one order (ties: the earlier source first), through a binary heap of their heads. */
function* mergeByKey<T>(sources: Iterator<readonly [number, T]>[]): Generator<readonly [number, T]> {
  interface Head {
    readonly source: number;
    readonly entry: readonly [number, T];
  }
  const less = (a: Head, b: Head): boolean => a.entry[0] < b.entry[0] || (a.entry[0] === b.entry[0] && a.source < b.source);
  const heap: Head[] = [];
  const add = (h: Head): void => {
    let i = heap.push(h) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const take = (): Head => {
    const top = heap[0]!;
    const end = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = end;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  };
  const next = (source: number): void => {
    const r = sources[source]!.next();
    if (!r.done) add({ source, entry: r.value });
  };
  for (let s = 0; s < sources.length; s++) next(s);
  while (heap.length > 0) {
    const h = take();
    yield h.entry;
    next(h.source);
  }
}
