// "Returned" means the response carried the file's source: codegraph starts
// each file section with a line `**`path`**` (its FILE_SECTION_PREFIX).

export const DEFAULT_MARKER = '^\\*\\*`([^`]+)`\\*\\*';

/** Compiles a marker source; its first capture group is the path. */
export function compileMarker(source: string): RegExp {
  return new RegExp(source, 'gm');
}

/** Every marked path, in order, duplicates kept (the reference's `[N files]` counts them). */
export function returnedFiles(text: string, marker: RegExp): string[] {
  const out: string[] = [];
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) {
    out.push(m[1] ?? m[0]);
    if (m[0] === '') marker.lastIndex++;
  }
  return out;
}
