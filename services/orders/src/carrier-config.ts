import { CARRIER_ACCOUNTS_CONFIG, carrierAccountProblems } from '@flatship/carriers';
import { loadConfig } from '@flatship/kit';
import type { Static, TObject } from 'typebox';

export { CARRIER_ACCOUNTS_CONFIG };

/**
 * Reads the configuration of a service that buys labels (orders, label-worker): its schema, then the variables of
 * the live carriers `CARRIERS` enables (USPS_*, EASYPOST_*), every problem naming its variable and no secret's
 * value. A `ConfigError` stops the process at start instead of at the first purchase.
 */
export function loadBuyingConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
): Static<T> {
  return loadConfig(schema, env, (config) => carrierAccountProblems(config as { CARRIERS: string }, env));
}
