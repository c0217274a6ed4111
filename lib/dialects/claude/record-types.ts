// Claude Code line types that carry no conversation: read, and skipped
// without a word (any other unknown type is counted as unknown, so a new
// kind of record is noticed rather than silently dropped).
//
// Versions are those that introduced each, from Claude Code's changelog
// and its Agent SDK's types; docs/sessions.md lists them.
export const SILENT_TYPES: ReadonlySet<string> = new Set([
  // stream-json
  'stream_event',
  'rate_limit_event',
  'control_request',
  'control_response',
  'control_cancel_request',
  'keep_alive',
  // A tool's progress while it runs and a summary of calls already made
  // (Agent SDK 0.3, Claude Code 2.1.x): the calls and results themselves come as usual.
  'tool_progress',
  'tool_use_summary',
  // login state, and the predicted next prompt (Agent SDK 0.3: SDKAuthStatusMessage, SDKPromptSuggestionMessage)
  'auth_status',
  'prompt_suggestion',
  // session files: bookkeeping beside the conversation
  'queue-operation',
  'summary',
  'attachment',
  'progress',
  'file-history-snapshot',
  'file-history-delta',
  'permission-mode',
  'last-prompt',
  'command_lifecycle',
  // a session's names and links, last one wins (2.1.41–2.1.239: titles, agent names, PR links)
  'custom-title',
  'ai-title',
  'agent-name',
  'agent-color',
  'agent-setting',
  'tag',
  'mode',
  'pr-link',
  'worktree-state',
  'teleported-from',
  'content-replacement',
  'atis-latch',
  'bridge-session',
  // a cursor into the conversation (/rewind), not a message of it
  'rewind-pointer',
  // where a fork came from: a fork subagent's pointer to its parent's context
  // (2.1.118, instead of a copy), and the lineage a forked session records
  'fork-context-ref',
  'derived-from',
]);
