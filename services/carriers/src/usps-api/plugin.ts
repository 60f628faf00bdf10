import type { CarrierPlugin } from '../registry';
import { USPS_MARKETPLACE_CODES, uspsCarrierServices } from '../usps/services';
import { USPS_CONFIG, uspsConfigProblems, uspsSettingsOf } from './config';
import { createUspsCarrier } from './usps-carrier';

/**
 * USPS itself (APIs v3): sells as `usps`, like the sandbox, so rows written with either read the same and a carrier
 * set can route a service to one or the other. Its settings come from `CarrierSettings.usps` (the USPS_* variables);
 * `create` throws naming every variable missing or wrong.
 */
export const uspsPlugin: CarrierPlugin = {
  id: 'usps',
  courier: 'usps',
  name: 'USPS',
  marketplaceCodes: USPS_MARKETPLACE_CODES,
  services: uspsCarrierServices(),
  config: USPS_CONFIG,
  configProblems: (env) => uspsConfigProblems(env),
  create: (settings) =>
    createUspsCarrier({
      ...uspsSettingsOf(settings.usps ?? {}),
      ...(settings.log ? { log: settings.log } : {}),
      ...(settings.observeCarrierCalls ? { observe: settings.observeCarrierCalls } : {}),
      ...(settings.purchaseGate ? { purchaseGate: settings.purchaseGate } : {}),
      ...(settings.memory ? { memory: settings.memory } : {}),
    }),
};
