// What one run of usage is told: the price table (the built-in one, with
// agent-eval.yaml's `usage.prices` over it).
import type { PriceTable } from '../../core/prices.js';

export interface UsageOptions {
  readonly prices?: PriceTable;
}
