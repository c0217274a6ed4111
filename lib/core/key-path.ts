/** `a.b[2].c`, as a message names a place in a config or a document. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path.length ? path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[') : '(top level)';
}
