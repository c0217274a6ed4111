// Bad input, told on stderr as it is met: one line per diagnostic (the first
// few), then how many more, and which unknown line types were skipped in
// which files. The JSON report carries the full count and the first items.
import type { Transform } from 'node:stream';
import type { StreamItem } from '../lib/core/items.js';
import type { Report } from '../lib/report/index.js';
import { reportSink } from './report-sink.js';
import { printable } from '../lib/core/escape.js';
import { SUBAGENTS_MISSING } from '../lib/core/missing-subagents.js';
import { UnknownTypeFiles } from '../lib/report/unknown-types.js';

export const LOGGED_DIAGNOSTICS = 10;

/** ` (a.jsonl, b.jsonl, …)`: where a type's lines were, so the user can look. */
function where(files: { readonly names: readonly string[]; readonly more: boolean } | undefined): string {
  if (files === undefined || files.names.length === 0) return '';
  return ` (${files.names.map(printable).join(', ')}${files.more ? ', …' : ''})`;
}

export function diagnosticsLog(prog = 'agent-eval-stream'): Transform {
  let logged = 0;
  let warned = 0;
  const typeFiles = new UnknownTypeFiles();
  const perItem = (item: StreamItem): string | undefined => {
    if (item.kind !== 'diagnostic') return undefined;
    if (item.code === 'unknown_type') {
      typeFiles.add(item.message, item.file);
      return undefined;
    }
    // A session's missing subagents are a warning once the run is read (lib/report/builder.ts), not a line's fault.
    if (item.code === SUBAGENTS_MISSING) {
      warned++;
      return undefined;
    }
    if (logged >= LOGGED_DIAGNOSTICS) return undefined;
    logged++;
    return `${prog}: ${printable(item.file)}:${item.line}: ${printable(item.code)}: ${printable(item.message)}\n`;
  };
  const render = (r: Report): string => {
    const out: string[] = [];
    const more = r.diagnostics.count - logged - warned;
    if (more > 0) out.push(`${prog}: … and ${more} more diagnostic${more === 1 ? '' : 's'} (${r.diagnostics.count} in all; --json lists them)`);
    const types = Object.entries(r.diagnostics.unknownTypes);
    if (types.length) out.push(`${prog}: skipped lines of unknown type: ${types.map(([t, n]) => `${printable(t)} ×${n}${where(typeFiles.of(t))}`).join(', ')}`);
    return out.length ? `${out.join('\n')}\n` : '';
  };
  return reportSink({ analyses: [], keepDetail: false }, render, perItem);
}
