import { createProcessMemory } from '../port';
import type { CarrierPlugin } from '../registry';
import { USPS_MARKETPLACE_CODES, uspsCarrierServices } from '../usps/services';
import { EASYPOST_CONFIG, easyPostConfigProblems } from './config';
import { createEasyPostCarrier } from './easypost-carrier';

/**
 * USPS postage bought through EasyPost. It sells under the `usps` courier, like the sandbox it replaces, so rows
 * written with either read the same; enabled together, a service goes to them in `CARRIERS` order.
 */
export const easyPostPlugin: CarrierPlugin = {
  id: 'easypost',
  courier: 'usps',
  name: 'USPS via EasyPost',
  marketplaceCodes: USPS_MARKETPLACE_CODES,
  services: uspsCarrierServices(),
  config: EASYPOST_CONFIG,
  configProblems: easyPostConfigProblems,
  create: (settings) => {
    if (!settings.easypost) {
      throw new Error('the easypost carrier needs its settings (EASYPOST_API_KEY and the rest, see easyPostSettings)');
    }
    return createEasyPostCarrier({
      settings: settings.easypost,
      // The carrier set always passes the service's memory; a process memory is refused with a production key.
      memory: settings.memory ?? createProcessMemory(),
      ...(settings.log ? { log: settings.log } : {}),
      ...(settings.observeCarrierCalls ? { observe: settings.observeCarrierCalls } : {}),
      ...(settings.purchaseGate ? { purchaseGate: settings.purchaseGate } : {}),
    });
  },
};
