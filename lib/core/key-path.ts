/** `a.b[2].c`, as a message names a place in a config or a document; a key that is not a plain name is quoted: `prices[""]`, `tasks["a.b"]`. */
export function keyPath(path: readonly PropertyKey[]): string {
  if (!path.length) return '(top level)';
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && !/^[^.[\]"\s\x00-\x1f\x7f-\x9f]+$/.test(p)) out += `[${JSON.stringify(p)}]`;
    else out += `${out ? '.' : ''}${String(p)}`;
  }
  return out;
}
