// Paths as the user wrote them are what reports and messages show; the file
// system is asked with them resolved against the caller's working directory,
// so a library caller (or a test running the CLI in-process) never depends
// on the process's own cwd.
import { isAbsolute, join } from 'node:path';

/** `path` as the file system must see it: resolved against `cwd` when both are relative. */
export function onDisk(path: string, cwd: string | undefined): string {
  return cwd === undefined || isAbsolute(path) ? path : join(cwd, path);
}
