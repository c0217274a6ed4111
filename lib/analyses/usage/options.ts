// What one run of usage is told: the price table (the built-in one, with
// agent-eval.yaml's `usage.prices` over it).
import type { PriceTable } from '../../core/prices.js';
import { priceTable } from '../../core/prices.js';
import { DEFAULT_PRICES } from '../../core/model-prices.js';
import type { OptionSources } from '../registration.js';
import type { UsageConfig } from './config.js';

export interface UsageOptions {
  readonly prices?: PriceTable;
}

/** A run's options: the built-in price table, the config's `usage.prices` over it. */
export function usageOptionsFrom({ config: c, configPath }: OptionSources<unknown, UsageConfig>): UsageOptions {
  return { prices: priceTable(DEFAULT_PRICES, c.usage?.prices, configPath ?? undefined) };
}
