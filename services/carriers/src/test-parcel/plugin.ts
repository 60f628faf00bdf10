import type { CarrierPlugin } from '../registry';
import { createTestParcelCarrier, TEST_PARCEL_SERVICES } from './test-parcel-carrier';

/** A second carrier that shows what adding one takes, and proves the platform sells more than USPS. */
export const testParcelPlugin: CarrierPlugin = {
  id: 'test-parcel',
  courier: 'test-parcel',
  name: 'Test Parcel',
  marketplaceCodes: {
    amazon: { carrierCode: 'Other', carrierName: 'Test Parcel' },
    'test-market': { carrierCode: 'TPX', carrierName: 'Test Parcel Express' },
  },
  services: TEST_PARCEL_SERVICES,
  create: (settings) => createTestParcelCarrier({ balanceCents: settings.sandboxBalanceCents }),
};
