import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Found {
  readonly root: string;
  readonly version: string;
}

let found: Found | null | undefined;

/** The nearest folder above this module (source, dist, or the bundled CLI) whose package.json is this package's. */
function findPackage(): Found | null {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-eval-stream' && pkg.version) return (found = { root: dir, version: pkg.version });
    } catch {
      // not here; keep climbing
    }
    const up = dirname(dir);
    if (up === dir) return (found = null);
    dir = up;
  }
}

/** This package's version, from its package.json. */
export function packageVersion(): string {
  return findPackage()?.version ?? '0.0.0';
}

/** This package's folder (where its package.json is), if it can be found. */
export function packageRoot(): string | undefined {
  return findPackage()?.root;
}
