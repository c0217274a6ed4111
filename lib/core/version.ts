import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's version, from the nearest package.json above this module (source or dist). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-eval-stream' && pkg.version) return pkg.version;
    } catch {
      // not here; keep climbing
    }
    const up = dirname(dir);
    if (up === dir) return '0.0.0';
    dir = up;
  }
}
