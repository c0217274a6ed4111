// Colour for terminals, decided once per output stream and applied through
// one function, so renderers stay plain text when colour is off. Styles are
// node:util's `styleText` names; the decision is the CLI's (see `colourFor`).
import { styleText } from 'node:util';

export type Style = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'bold' | 'dim';

/** Wraps `text` in a style, or returns it unchanged. */
export type Paint = (style: Style, text: string) => string;

export const plain: Paint = (_style, text) => text;

/** `styleText` without its own stream check: whether to colour was decided already. */
export const coloured: Paint = (style, text) => styleText(style, text, { validateStream: false });

interface ColourTarget {
  readonly isTTY?: boolean;
  hasColors?(env?: object): boolean;
}

/**
 * Colour on `stream`? NO_COLOR (set and not empty) turns it off, then
 * FORCE_COLOR turns it on (`0` or `false` off), else a terminal that says it
 * has colours. The environment is the one given, not the process's: a
 * harness running the CLI in-process decides for its own streams.
 */
export function colourFor(stream: unknown, env: NodeJS.ProcessEnv): Paint {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return plain;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force === '0' || force === 'false' ? plain : coloured;
  const s = stream as ColourTarget;
  return s.isTTY === true && typeof s.hasColors === 'function' && s.hasColors(env) ? coloured : plain;
}
