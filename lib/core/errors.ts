// Errors a user can cause carry a stable code and are printed as one line;
// anything else is a bug (exit 1, with its stack).

export const ERROR_CODES = {
  usage: 'AES_ERR_USAGE',
  config: 'AES_ERR_CONFIG',
  input: 'AES_ERR_INPUT',
  output: 'AES_ERR_OUTPUT',
} as const;

export type UserErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const kUserError = Symbol.for('agent-eval-stream.UserError');

export class UserError extends Error {
  readonly code: UserErrorCode;
  constructor(code: UserErrorCode, message: string) {
    super(message);
    this.name = 'UserError';
    this.code = code;
  }
  get [kUserError](): true {
    return true;
  }
  // Works across two copies of the package (a harness and its dependency).
  static override [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[kUserError] === true;
  }
}

export class UsageError extends UserError {
  constructor(message: string) {
    super(ERROR_CODES.usage, message);
    this.name = 'UsageError';
  }
}

export class ConfigError extends UserError {
  constructor(message: string) {
    super(ERROR_CODES.config, message);
    this.name = 'ConfigError';
  }
}

export class InputError extends UserError {
  constructor(message: string) {
    super(ERROR_CODES.input, message);
    this.name = 'InputError';
  }
}

/** A report or graph that could not be written (disk full, I/O error, no permission). */
export class OutputError extends UserError {
  constructor(message: string) {
    super(ERROR_CODES.output, message);
    this.name = 'OutputError';
  }
}

/** `ENOSPC (no space left on device)`: the code a user can search for, and what it means. */
/** What the common errno codes mean, in the words of strerror. */
const ERRNO_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EIO: 'input/output error',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  // A network peer (a Kafka broker).
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'temporary failure in name resolution',
};

/** A read error in words alone (`no such file or directory`), or its code when it has no words here. */
export function errnoWords(e: NodeJS.ErrnoException): string {
  if (e.code === undefined) return String(e.message);
  return Object.hasOwn(ERRNO_WORDS, e.code) ? ERRNO_WORDS[e.code]! : e.code;
}

export function describeErrno(e: NodeJS.ErrnoException): string {
  if (e.code === undefined) return e.message;
  return Object.hasOwn(ERRNO_WORDS, e.code) ? `${e.code} (${ERRNO_WORDS[e.code]})` : e.code;
}
