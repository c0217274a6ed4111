// Bundles the built CLI (dist/bin/agent-eval-stream.js) and everything it
// imports into that file and a few chunks beside it. Node's module loader resolving, reading and
// compiling ~250 files was most of a run's startup: 240 ms against 150 ms
// bundled for a one-line transcript, node itself taking 60 (docs/benchmarks.md).
// The library stays unbundled (dist/index.js and its modules), and so does
// the session pool's worker, which the CLI finds by the package's folder.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/bin/agent-eval-stream.js'],
  outdir: 'dist/bin',
  allowOverwrite: true,
  // Each command's modules in a chunk of their own, loaded when it runs: `--version` loads none.
  splitting: true,
  chunkNames: 'cli-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies call require() for Node's own modules.
  banner: { js: "import { createRequire as __aesRequire } from 'node:module'; const require = __aesRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
});
