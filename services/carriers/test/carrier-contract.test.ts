import { createSandboxCarrier } from '../src/sandbox/sandbox-carrier';
import { createTestParcelCarrier } from '../src/test-parcel/test-parcel-carrier';
import { CONTRACT_TO, describeCarrierContract } from '../src/testing/carrier-contract';

describeCarrierContract('sandbox-usps', async () => {
  const carrier = createSandboxCarrier();
  return { carrier, undeliverable: { ...CONTRACT_TO, street1: 'Main Street' }, close: () => carrier.close() };
});

describeCarrierContract('test-parcel', async () => {
  const carrier = createTestParcelCarrier();
  return { carrier, close: () => carrier.close() };
});
