// The shell reader (`agent-eval-stream/shell`): a command line as simple
// commands, and what each does with files.

// Needs @types/node, as every entry point does (see index.ts).
/// <reference types="node" preserve="true" />

export { parseShell, allCommands, MAX_SUBSTITUTION_DEPTH } from './parse.js';
export type { SimpleCommand, Redirect, Heredoc, Connector, RedirectOp } from './parse.js';
export { classifyShell, classifyCommands, commandIntent } from './file-access.js';
export type { FileRef, AccessKind, ShellAccess } from './file-access.js';
export { innerScript, commandsRun, MAX_SCRIPT_DEPTH } from './inner-script.js';
export { unwrapCommand } from './wrappers.js';
