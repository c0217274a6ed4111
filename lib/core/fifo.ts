// A first-in-first-out queue whose `shift` costs O(1): Array#shift moves
// every remaining element, which turns draining a long queue quadratic.
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(x: T): void {
    this.#items.push(x);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const x = this.#items[this.#head]!;
    this.#items[this.#head++] = undefined as T;
    // Drop the consumed front once it is most of the array: amortised O(1).
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return x;
  }
}

/**
 * The last `capacity` strings seen, for membership: a ring of them and a Set.
 * Evicting the oldest is O(1) (a Set's first entry, once many have been
 * deleted, is found by walking the deleted slots).
 */
export class RecentSet {
  readonly #capacity: number;
  readonly #ring: string[] = [];
  #next = 0;
  readonly #set = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  has(x: string): boolean {
    return this.#set.has(x);
  }

  add(x: string): void {
    if (this.#set.has(x)) return;
    if (this.#ring.length < this.#capacity) this.#ring.push(x);
    else {
      this.#set.delete(this.#ring[this.#next]!);
      this.#ring[this.#next] = x;
      this.#next = (this.#next + 1) % this.#capacity;
    }
    this.#set.add(x);
  }

  /**
   * Forgets `x` now. Its ring slot stays until its turn comes; if `x` was
   * added again by then, that turn forgets it early: callers use this set
   * where forgetting too soon only costs a fallback, never a wrong answer.
   */
  delete(x: string): void {
    this.#set.delete(x);
  }

  get size(): number {
    return this.#set.size;
  }
}
