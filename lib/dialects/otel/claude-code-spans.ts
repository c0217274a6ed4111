// Claude Code's own trace spans (`CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1`, a
// beta since about 2.1.41; attribute tables in Claude Code's monitoring
// docs). They do not follow the GenAI conventions, so this file says how
// each maps onto what the GenAI spans give:
//
//   claude_code.interaction            one user prompt: the trace's root, the main thread's agent
//   ├── claude_code.llm_request        a model call: `input_tokens`, `output_tokens`, `cache_*_tokens`
//   ├── claude_code.hook               a hook run (detailed beta only): known, not a call
//   └── claude_code.tool               a tool call: `tool_name`; output in a `tool.output` span event
//       ├── claude_code.tool.blocked_on_user   the permission wait: `decision` reject = the call was refused
//       ├── claude_code.tool.execution         the tool's body: `success: false` (or `error`) = it failed
//       └── a subagent's llm_request and tool spans, under the Agent call that ran it
//
// The call's input is what the spans carry: the full arguments only with
// detailed beta tracing (`tool_input`), else the command, file, skill or
// agent type they name (`OTEL_LOG_TOOL_DETAILS=1`).
type Obj = Record<string, unknown>;

export const CLAUDE_CODE_TOOL = 'claude_code.tool';
export const CLAUDE_CODE_MODEL_CALL = 'claude_code.llm_request';
const EXECUTION = 'claude_code.tool.execution';
const BLOCKED = 'claude_code.tool.blocked_on_user';
const TOOL_OUTPUT_EVENT = 'tool.output';

/** A span event, its attributes as plain values. */
export interface SpanEvent {
  readonly name: string;
  readonly attrs: Obj;
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);

/**
 * What a child of a `claude_code.tool` span says of its call: true when it
 * failed (its execution ended unsuccessful, or permission was refused, so it
 * never ran), false when it says the call went on, undefined for any other span.
 */
export function toolPartFailed(name: string, attrs: Obj, errorStatus: boolean): boolean | undefined {
  if (name === EXECUTION) return errorStatus || attrs.success === false || attrs.success === 'false' || str(attrs.error) !== undefined;
  if (name === BLOCKED) return attrs.decision === 'reject';
  return undefined;
}

/** Detailed beta tracing writes the whole input as `[TOOL INPUT: Name]\n{json}`. */
function fullInput(raw: unknown): Obj | undefined {
  const s = str(raw);
  if (s === undefined) return undefined;
  const nl = s.indexOf('\n');
  try {
    const v: unknown = JSON.parse(nl === -1 ? s : s.slice(nl + 1));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** Span attribute (or `tool.output` event attribute) → the input field Claude Code's tools name it. */
const INPUT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['full_command', 'command'],
  ['bash_command', 'command'],
  ['file_path', 'file_path'],
  ['skill_name', 'skill'],
  ['subagent_type', 'subagent_type'],
];

export function claudeCodeToolInput(attrs: Obj, events: readonly SpanEvent[]): Obj {
  const full = fullInput(attrs.tool_input);
  if (full) return full;
  const input: Obj = {};
  const output = events.find((e) => e.name === TOOL_OUTPUT_EVENT)?.attrs;
  for (const from of [attrs, output ?? {}])
    for (const [key, field] of INPUT_FIELDS) {
      const v = str(from[key]);
      if (v !== undefined && input[field] === undefined) input[field] = v;
    }
  return input;
}

/** The result text: the `tool.output` event's output, content or diff (`OTEL_LOG_TOOL_CONTENT=1`); '' when it was not recorded. */
export function claudeCodeToolOutput(events: readonly SpanEvent[]): string {
  const a = events.find((e) => e.name === TOOL_OUTPUT_EVENT)?.attrs;
  if (!a) return '';
  return str(a.output) ?? str(a.content) ?? str(a.diff) ?? '';
}

/** A model call's token attributes, in the order usage reads them (GenAI names first). */
export const CLAUDE_CODE_TOKENS = {
  input: 'input_tokens',
  output: 'output_tokens',
  cacheRead: 'cache_read_tokens',
  cacheCreation: 'cache_creation_tokens',
} as const;
