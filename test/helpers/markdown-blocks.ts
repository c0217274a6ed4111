// The fenced code blocks of a Markdown page, each with the HTML comment that
// says where its text comes from. A page shows the comment to no reader; the
// docs' example test reads it. The comment is the last thing before the
// fence (blank lines apart):
//
//   <!-- output: agent-eval-stream --json fixtures/express-res-send.jsonl -->
//   <!-- stderr: agent-eval-stream graph build … -o graph.json -->
//   <!-- file suggested.yaml: agent-eval-stream calibrate … -o suggested.yaml -->
//   <!-- input broken.yaml -->
//   <!-- not checked: why -->
//
// `output` is the command's stdout, `stderr` its stderr, `file NAME` the
// file it wrote; `input NAME` makes the block a file the later commands
// read (a config with mistakes, to show the errors); `not checked` says,
// for a reader of the source, why a block that looks like output is none
// (a diagram, a format's shape, a quote).

export type Marker =
  | { readonly kind: 'output' | 'stderr'; readonly command: string }
  | { readonly kind: 'file'; readonly file: string; readonly command: string }
  | { readonly kind: 'input'; readonly file: string }
  | { readonly kind: 'not checked'; readonly reason: string };

export interface CodeBlock {
  /** The page's 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's info string (`json`, `yaml`, `` for none). */
  readonly info: string;
  /** The body, its lines without the fence's indentation, ending in a newline. */
  readonly body: string;
  readonly marker: Marker | null;
}

const FENCE = /^( *)(```+)(.*)$/;
const MARKER = /^<!--\s*(?:(output|stderr|file\s+(\S+)|not checked)\s*:\s*([\s\S]*?)|input\s+(\S+))\s*-->$/;

/** A marker's text, or an error naming what is wrong with it. */
export function parseMarker(comment: string): Marker | Error {
  const m = MARKER.exec(comment.trim());
  if (!m) return new Error(`not a marker: ${comment.trim()}`);
  const [, what, file, rest, input] = m as unknown as [string, string | undefined, string | undefined, string, string | undefined];
  if (input !== undefined) return { kind: 'input', file: input };
  if (what === 'not checked') return { kind: 'not checked', reason: rest };
  if (rest === '') return new Error(`a marker without its command: ${comment.trim()}`);
  if (file !== undefined) return { kind: 'file', file, command: rest };
  return { kind: what as 'output' | 'stderr', command: rest };
}

/** Every fenced block of `markdown`, in order, with its marker. A malformed marker throws. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const out: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, ticks, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j]!.startsWith(indent + ticks) && lines[j]!.trim() === ticks); j++) body.push(lines[j]!.slice(indent.length));
    out.push({ line: i + 1, info: info.trim(), body: body.length ? `${body.join('\n')}\n` : '', marker: markerBefore(lines, i) });
    i = j;
  }
  return out;
}

/** The `<!-- … -->` comment that ends just above line `i` (blank lines apart), or null. */
function markerBefore(lines: readonly string[], i: number): Marker | null {
  let end = i - 1;
  while (end >= 0 && lines[end]!.trim() === '') end--;
  if (end < 0 || !lines[end]!.trim().endsWith('-->')) return null;
  let start = end;
  while (start > 0 && !lines[start]!.includes('<!--')) start--;
  const comment = lines.slice(start, end + 1).join('\n');
  // Other comments (a generator's `<!-- bench:start -->`) are not markers.
  if (!/^\s*<!--\s*(output|stderr|file|input|not checked)\b/.test(comment)) return null;
  const marker = parseMarker(comment.replace(/\s*\n\s*/g, ' '));
  if (marker instanceof Error) throw new Error(`line ${start + 1}: ${marker.message}`);
  return marker;
}
