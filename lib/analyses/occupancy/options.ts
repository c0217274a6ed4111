// What one run of occupancy is told: the context window, when the config
// sets one.
import type { OptionSources } from '../registration.js';
import type { OccupancyConfig } from './config.js';

export interface OccupancyOptions {
  /** The context window, in tokens, as the config sets it; unset, a session whose model name says 1M has 1M, any other the default. */
  readonly window?: number;
}

/** The reference's window (`CG_WINDOW_TOKENS`). */
export const DEFAULT_WINDOW = 200_000;
/** The window of a model whose name says it has a 1M context. */
export const MILLION_WINDOW = 1_000_000;

/** A run's options: the config's `occupancy.window`, when it sets one. */
export function occupancyOptionsFrom({ config: c }: OptionSources<unknown, OccupancyConfig>): OccupancyOptions {
  return c.occupancy?.window === undefined ? {} : { window: c.occupancy.window };
}
