// The temporary folder as os.tmpdir() finds it, but read from a given
// environment rather than process.env: the CLI takes it from the
// environment it was handed (io.env), so a test running it in-process can
// point TMPDIR elsewhere, and what a run does depends on nothing else.
import { tmpdir } from 'node:os';

/** os.tmpdir()'s answer for `env`: TMPDIR, TMP or TEMP, else /tmp (on Windows TEMP or TMP, else the system's). */
export function tempFolder(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32') {
    const v = env.TEMP || env.TMP;
    if (!v) return tmpdir();
    return v.length > 1 && v.endsWith('\\') && !v.endsWith(':\\') ? v.slice(0, -1) : v;
  }
  const v = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return v.length > 1 && v.endsWith('/') ? v.slice(0, -1) : v;
}
