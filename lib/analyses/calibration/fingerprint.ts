// The corpus a calibration was made on, as one hash: sha256 over the runs'
// ids and step counts, sorted by id. The same runs graded the same way give
// the same fingerprint whatever order the files were read in; a run added,
// dropped or graded to another step count gives another.
import { createHash } from 'node:crypto';

export function corpusFingerprint(runs: Iterable<{ readonly run: string; readonly steps: number }>): string {
  // By id in code-unit order (the same on every machine and locale), then by steps for runs sharing an id.
  const sorted = [...runs].sort((a, b) => (a.run < b.run ? -1 : a.run > b.run ? 1 : a.steps - b.steps));
  const h = createHash('sha256');
  // One JSON array per line: an id holding a tab or a newline cannot run into the next.
  for (const r of sorted) h.update(`${JSON.stringify([r.run, r.steps])}\n`);
  return `sha256:${h.digest('hex')}`;
}
