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
  /** Use fs.watch (default); false polls alone, as on filesystems that deliver no events. */
  readonly watch?: boolean;
}

/** Resolves on the first of: a watch event, the poll interval, the signal. */
class Wakeup {
  #watcher: FSWatcher | undefined;
  #wake: (() => void) | undefined;

  constructor(path: string, useWatch: boolean) {
    if (!useWatch) return;
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

// The file's first bytes, kept to notice it rewritten in place (truncated and
// written again to more than we had read: its size alone would not tell).
const HEAD = 4096;

async function headChanged(fh: FileHandle, head: Buffer): Promise<boolean> {
  if (head.length === 0) return false;
  const now = Buffer.alloc(head.length);
  const { bytesRead } = await fh.read(now, 0, head.length, 0);
  return bytesRead < head.length || !now.equals(head);
}

export async function* followChunks(path: string, opts: FollowOptions = {}): AsyncGenerator<Buffer | typeof RESTART> {
  const poll = Math.min(opts.pollMs ?? POLL_MS, POLL_MS);
  let fh: FileHandle = await open(path, 'r');
  let ino = (await fh.stat()).ino;
  let pos = 0;
  let head = Buffer.alloc(0);
  let lastData = Date.now();
  const wake = new Wakeup(path, opts.watch !== false);
  const buf = Buffer.alloc(CHUNK);
  let woke = false;
  try {
    while (!opts.signal?.aborted) {
      // After a wait the file may have been rewritten: look before reading on
      // from where we were, or we would read the middle of its new content.
      if (woke) {
        woke = false;
        if (await headChanged(fh, head)) {
          pos = 0;
          head = Buffer.alloc(0);
          yield RESTART;
          continue;
        }
      }
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead > 0) {
        const chunk = Buffer.from(buf.subarray(0, bytesRead));
        if (head.length < HEAD) head = Buffer.concat([head, chunk.subarray(0, HEAD - head.length)]);
        pos += bytesRead;
        lastData = Date.now();
        yield chunk;
        continue;
      }
      // At the end: has the file been replaced or cut short?
      const now = await stat(path).catch(() => undefined);
      if (now && now.ino !== ino) {
        await fh.close();
        fh = await open(path, 'r');
        ino = (await fh.stat()).ino;
        pos = 0;
        head = Buffer.alloc(0);
        yield RESTART;
        continue;
      }
      if (now && (now.size < pos || (await headChanged(fh, head)))) {
        pos = 0;
        head = Buffer.alloc(0);
        yield RESTART;
        continue;
      }
      const idle = typeof opts.idleMs === 'function' ? opts.idleMs() : opts.idleMs;
      if (idle !== undefined && Date.now() - lastData >= idle) {
        opts.onIdle?.();
        return;
      }
      await wake.wait(idle === undefined ? poll : Math.min(poll, Math.max(1, idle - (Date.now() - lastData))), opts.signal);
      woke = true;
    }
  } finally {
    wake.close();
    await fh.close();
  }
}
