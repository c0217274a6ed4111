// Many sessions on every core: `jobs - 1` workers and this thread each read
// whole sessions through the same stages (runSession), and this thread hands
// their items to the reporters in the order the sessions were given — so
// every report is the one a single thread writes, byte for byte. A session
// finished early waits in memory (its items only) until those before it
// are written; at most one session per worker runs ahead. This thread takes
// a share of the sessions itself: writing the reports leaves it mostly idle,
// and one worker fewer is one module graph fewer to load.
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../core/version.js';
import type { StreamItem } from '../core/items.js';
import type { SessionInput } from '../io/session-input.js';
import type { Configured } from '../analyses/types.js';
import type { FromWorker, ToWorker } from './session-worker.js';
import { runSession } from './session-run.js';
import type { WorkerSetup } from './session-run.js';
import type { EventCounts } from './read-tally.js';

export interface PoolOptions {
  /** Threads asked for to read sessions, this one included (capped: poolThreads). */
  readonly jobs: number;
  readonly setup: WorkerSetup;
  /** This thread's own analyses (workers build theirs from `setup.recipe`). */
  readonly analyses: readonly Configured[];
  /** Stops the pool: sessions being read end as stopped, later ones are not read. */
  readonly signal?: AbortSignal;
  readonly onInputError?: (file: string, err: NodeJS.ErrnoException) => void;
  /** What was counted of the events kept back, once a session is done. */
  readonly onCounts?: (counts: EventCounts) => void;
}

// The worker is always the built, bundled module in the package's dist/bin
// (scripts/bundle-cli.mjs), whether the CLI runs bundled, from dist/lib, or
// from the TypeScript sources (the tests do; `npm test` builds dist/ first).
function workerUrl(): URL {
  const root = packageRoot();
  if (root !== undefined) return pathToFileURL(join(root, 'dist', 'bin', 'session-worker.js'));
  // No package.json of ours above (a renamed copy): beside this module — the bundled worker beside the bundled CLI, the unbundled one in dist/lib/cli.
  return new URL('./session-worker.js', import.meta.url);
}

interface Slot {
  items: StreamItem[][];
  done: boolean;
}

/**
 * How many threads read `sessions` when `jobs` are asked for: no more than
 * the cores (a thread more is a module graph and a heap more, and no faster:
 * `--jobs 1000` over 40 small sessions on 2 cores took 7.8–8.6 s and 1.1–1.2
 * GB, against 0.4 s and 105 MB capped), nor than the sessions.
 */
export function poolThreads(jobs: number, sessions: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(jobs, cores, sessions));
}

export function sessionPool(sessions: readonly SessionInput[], o: PoolOptions): Readable {
  return Readable.from(run(sessions, o, poolThreads(o.jobs, sessions.length)), { objectMode: true, highWaterMark: 1 });
}

async function* run(sessions: readonly SessionInput[], o: PoolOptions, threads: number): AsyncGenerator<StreamItem> {
  const slots = new Map<number, Slot>();
  let next = 0;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let dispatched = 0;
  const take = (): number | undefined => {
    if (dispatched >= sessions.length || o.signal?.aborted) return undefined;
    slots.set(dispatched, { items: [], done: false });
    return dispatched++;
  };
  const finished = (index: number, counts: EventCounts): void => {
    slots.get(index)!.done = true;
    o.onCounts?.(counts);
    notify();
  };

  const workers: Worker[] = [];
  const dispatch = (w: Worker): void => {
    // A worker takes the next session once it is done with one.
    const index = take();
    if (index !== undefined) w.postMessage({ type: 'session', index, session: sessions[index]! } satisfies ToWorker);
  };
  for (let i = 1; i < threads; i++) {
    // No execArgv of this process's: the worker runs this package's built
    // module and nothing else, so the loaders and preloads node was started
    // with (a TypeScript loader, a test runner's mocks) have nothing in it to
    // load, and each one costs every worker its start — 1.07 s of CPU per
    // worker under tap and tsx against 0.17 s without (docs/benchmarks.md).
    const w = new Worker(workerUrl(), { workerData: o.setup, execArgv: [] });
    w.on('message', (m: FromWorker) => {
      if (m.type === 'items') slots.get(m.index)!.items.push(m.items);
      else if (m.type === 'done') {
        finished(m.index, m.counts);
        dispatch(w);
      } else if (m.type === 'input_error') o.onInputError?.(m.file, Object.assign(new Error(m.message), { code: m.code }));
      else failure ??= new Error(`a worker failed: ${m.message}`);
      notify();
    });
    w.on('error', (err) => {
      failure ??= err;
      notify();
    });
    workers.push(w);
    dispatch(w);
  }
  const stop = new AbortController();
  const onAbort = (): void => {
    stop.abort();
    for (const w of workers) w.postMessage({ type: 'stop' } satisfies ToWorker);
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  // This thread's share: the next session whenever it is free.
  const local = (async () => {
    for (let index = take(); index !== undefined; index = take()) {
      const i = index;
      const counts = await runSession(sessions[i]!, {
        setup: o.setup,
        analyses: o.analyses,
        signal: stop.signal,
        post: (items) => {
          slots.get(i)!.items.push(items);
          notify();
        },
        onInputError: (file, err) => o.onInputError?.(file, err),
      });
      finished(i, counts);
    }
  })().catch((err: unknown) => {
    failure ??= err;
    notify();
  });
  try {
    while (next < dispatched || (next < sessions.length && !o.signal?.aborted)) {
      if (failure) throw failure;
      const slot = slots.get(next);
      if (slot && slot.items.length) {
        yield* slot.items.shift()!;
        continue;
      }
      if (slot?.done) {
        slots.delete(next++);
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
    await local;
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
