// Progress of a long read on a terminal: bytes, MB/s, ETA on one stderr line
// redrawn in place. Nothing is drawn off a terminal, with --quiet, or on a
// terminal that cannot redraw a line (TERM=dumb). NO_COLOR is about colour,
// and progress has none: it does not turn progress off.
const MB = 1e6;

export interface ProgressTarget {
  readonly isTTY?: boolean;
  write(s: string): unknown;
}

/** Whether to draw at all. */
export function wantsProgress(stderr: ProgressTarget, env: NodeJS.ProcessEnv, quiet: boolean): boolean {
  return stderr.isTTY === true && !quiet && env.TERM !== 'dumb';
}

export class Progress {
  readonly #out: ProgressTarget;
  readonly #total: number;
  readonly #start: number;
  readonly #every: number;
  #bytes = 0;
  #last = 0;
  #drawn = false;

  constructor(out: ProgressTarget, total: number, everyMs = 200, now = Date.now()) {
    this.#out = out;
    this.#total = total;
    this.#start = now;
    this.#every = everyMs;
    this.#last = now;
  }

  add(bytes: number, now = Date.now()): void {
    this.#bytes += bytes;
    if (now - this.#last < this.#every) return;
    this.#last = now;
    const s = Math.max((now - this.#start) / 1000, 1e-3);
    const rate = this.#bytes / MB / s;
    const left = rate > 0 && this.#total > this.#bytes ? (this.#total - this.#bytes) / MB / rate : 0;
    const pct = this.#total ? ` (${((this.#bytes / this.#total) * 100).toFixed(0)}%)` : '';
    this.#out.write(`\r\x1b[K${(this.#bytes / MB).toFixed(1)} / ${(this.#total / MB).toFixed(1)} MB${pct}  ${rate.toFixed(1)} MB/s  ETA ${left.toFixed(0)} s`);
    this.#drawn = true;
  }

  /** Clears the line, so the report starts on a clean one. */
  end(): void {
    if (this.#drawn) this.#out.write('\r\x1b[K');
    this.#drawn = false;
  }
}
