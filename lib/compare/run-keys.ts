// Which run of a report a per-run fact is of. A session may hold several
// runs (a traces.json document holds a whole pass of them), and two
// traces.json runs that share an id stay two runs: a run is known by its
// session, its id, and how many runs of that id the session ended before
// it. Grading lists a session's runs in the order they ended, and every
// per-run fact (an analysis' figures, contamination) is listed in that
// order too, so the k-th of each is the same run.
export class RunKeys {
  readonly #seen = new Map<string, number>();

  /** The key of the next run `run` of `session`. */
  next(session: string, run: string): string {
    // JSON of the pair: no session or run id, however hostile, makes two pairs one.
    const pair = JSON.stringify([session, run]);
    const k = this.#seen.get(pair) ?? 0;
    this.#seen.set(pair, k + 1);
    return `${pair}${k}`;
  }
}
