import type { Tokens } from '../../core/items.js';

export function emptyTokens(): Tokens {
  return { messages: 0, input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
}

export function addTokens(a: Tokens, b: Tokens): Tokens {
  return { messages: a.messages + b.messages, input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheCreation: a.cacheCreation + b.cacheCreation };
}
