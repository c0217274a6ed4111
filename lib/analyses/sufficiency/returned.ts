// "Returned" means the response carried the file's source: codegraph starts
// each file section with a line `**`path`**` (its FILE_SECTION_PREFIX).

export const DEFAULT_MARKER = '^\\*\\*`([^`]+)`\\*\\*';

/** Compiles a marker source; its first capture group is the path. */
export function compileMarker(source: string): RegExp {
  return new RegExp(source, 'gm');
}

/**
 * Every marked path, in order, duplicates kept (the reference's `[N files]`
 * counts them). Each path is copied out: a regex match is a slice that would
 * keep the whole (multi-KB) response alive for as long as the report keeps
 * the path — the whole transcript's responses, on a long run.
 */
export function returnedFiles(text: string, marker: RegExp): string[] {
  const out: string[] = [];
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) {
    out.push(detach(m[1] ?? m[0]));
    if (m[0] === '') marker.lastIndex++;
  }
  return out;
}

/**
 * A copy of `s` that shares no memory with the string it was sliced from.
 * V8 flattens `' ' + s` into a new string, copying `s`'s characters, and the
 * slice after its first character refers to that copy alone. It is four
 * times cheaper than a round trip through UTF-8 bytes, which this was: the
 * benchmark's probes return some 400,000 paths (test/detach.test.ts shows
 * what a slice would keep).
 */
export function detach(s: string): string {
  return (' ' + s).slice(1);
}
