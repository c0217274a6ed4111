// Reading a file that is still being written (`--follow`): from an fd at a
// position, woken by fs.watch and, because watch events are not delivered on
// every filesystem, by a poll of at most 100 ms. A half-written last line
// simply waits in the line splitter for its newline. A file truncated or
// replaced under us restarts from its beginning.
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';

export const POLL_MS = 100;
const CHUNK = 1024 * 1024;

/** Yielded when the file was truncated or replaced: what came before is void. */
export const RESTART = Symbol('restart');

export interface FollowOptions {
  /** Stops following: the generator returns at once. */
  readonly signal?: AbortSignal;
  /** Stop after this long without new bytes (ms); a function is asked each time (the format decides). */
  readonly idleMs?: number | (() => number | undefined);
  /** Called when the idle timeout ends the follow. */
  readonly onIdle?: () => void;
  readonly pollMs?: number;
}

/** Resolves on the first of: a watch event, the poll interval, the signal. */
class Wakeup {
  #watcher: FSWatcher | undefined;
  #wake: (() => void) | undefined;

  constructor(path: string) {
    try {
      this.#watcher = watch(path, () => this.#wake?.());
      this.#watcher.on('error', () => this.close());
    } catch {
      this.#watcher = undefined; // polling alone, then
    }
  }

  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }
}

export async function* followChunks(path: string, opts: FollowOptions = {}): AsyncGenerator<Buffer | typeof RESTART> {
  const poll = Math.min(opts.pollMs ?? POLL_MS, POLL_MS);
  let fh: FileHandle = await open(path, 'r');
  let ino = (await fh.stat()).ino;
  let pos = 0;
  let lastData = Date.now();
  const wake = new Wakeup(path);
  const buf = Buffer.alloc(CHUNK);
  try {
    while (!opts.signal?.aborted) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        lastData = Date.now();
        yield Buffer.from(buf.subarray(0, bytesRead));
        continue;
      }
      // At the end: has the file been replaced or cut short?
      const now = await stat(path).catch(() => undefined);
      if (now && now.ino !== ino) {
        await fh.close();
        fh = await open(path, 'r');
        ino = (await fh.stat()).ino;
        pos = 0;
        yield RESTART;
        continue;
      }
      if (now && now.size < pos) {
        pos = 0;
        yield RESTART;
        continue;
      }
      const idle = typeof opts.idleMs === 'function' ? opts.idleMs() : opts.idleMs;
      if (idle !== undefined && Date.now() - lastData >= idle) {
        opts.onIdle?.();
        return;
      }
      await wake.wait(idle === undefined ? poll : Math.min(poll, Math.max(1, idle - (Date.now() - lastData))), opts.signal);
    }
  } finally {
    wake.close();
    await fh.close();
  }
}
