import { CARRIER_ACCOUNTS_CONFIG, carrierConfigProblems } from '@flatship/carriers';
import { ConfigError, loadConfig } from '@flatship/kit';
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
  const config = loadConfig(schema, env) as Static<T> & { CARRIERS: string };
  const problems = carrierConfigProblems(config.CARRIERS, env);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
