import type { CarrierPlugin } from '../registry';
import { USPS_MARKETPLACE_CODES, uspsCarrierServices } from '../usps/services';
import { journeyMovesIn } from './journey-clock';
import { createSandboxCarrier } from './sandbox-carrier';

/** The built-in USPS look-alike: sells as `usps`, so its labels read like USPS ones. */
export const sandboxUspsPlugin: CarrierPlugin = {
  id: 'sandbox-usps',
  courier: 'usps',
  name: 'USPS',
  marketplaceCodes: USPS_MARKETPLACE_CODES,
  services: uspsCarrierServices(),
  create: (settings) =>
    createSandboxCarrier({
      failureRate: settings.failureRate,
      latencyMs: settings.latencyMs,
      renderThreads: settings.renderThreads,
      balanceCents: settings.sandboxBalanceCents,
      ...(settings.sandboxTrackingHourMs ? { trackingHourMs: settings.sandboxTrackingHourMs } : {}),
      ...(settings.sandboxJourneyFile ? { journeyMoves: journeyMovesIn(settings.sandboxJourneyFile) } : {}),
      ...(settings.purchaseGate ? { purchaseGate: settings.purchaseGate } : {}),
    }),
};
