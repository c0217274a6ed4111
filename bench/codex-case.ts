// The Codex rollout case of `npm run bench` (and `--only codex`): a
// generated rollout of about 200 MB (bench/generate-codex.ts) read by the
// default command and by grading, beside the bare loop on the same file.
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { generateCodex } from './generate-codex.js';

/** What the case needs of the harness (bench/run.ts): its runner, and where files go. */
export interface CodexHarness<Mode, Run> {
  readonly file: string;
  readonly modes: { readonly bare: Mode; readonly commands: readonly Mode[] };
  readonly name: (m: Mode) => string;
  measure(label: string, modes: readonly Mode[], file: string): Map<string, Run>;
  readonly seconds: (r: Run) => number;
  readonly rss: (r: Run) => number;
}

export async function codexCase<Mode, Run>(h: CodexHarness<Mode, Run>, sizeMB: number): Promise<string[]> {
  const out = createWriteStream(h.file);
  await generateCodex(sizeMB * 1024 * 1024, out);
  out.end();
  await finished(out);
  const all = h.measure('codex', [h.modes.bare, ...h.modes.commands], h.file);
  const bare = all.get(h.name(h.modes.bare))!;
  const rows = [h.modes.bare, ...h.modes.commands].map((m) => {
    const r = all.get(h.name(m))!;
    const ratio = h.seconds(bare) / h.seconds(r);
    return `| ${m === h.modes.bare ? 'bare loop (the floor)' : `\`${h.name(m)}\``} | ${ratio.toFixed(2)}, ${h.seconds(r).toFixed(1)} s | ${h.rss(r).toFixed(0)} MB |`;
  });
  return [`A generated Codex rollout of ${sizeMB} MB (\`bench/generate-codex.ts\`):`, '', '| command | ratio, s | peak RSS |', '|---|---:|---:|', ...rows];
}
