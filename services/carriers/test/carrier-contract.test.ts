import { easyPostSettings } from '../src/easypost/config';
import { createEasyPostCarrier } from '../src/easypost/easypost-carrier';
import { createProcessMemory } from '../src/port';
import { createSandboxCarrier } from '../src/sandbox/sandbox-carrier';
import { createTestParcelCarrier } from '../src/test-parcel/test-parcel-carrier';
import { CONTRACT_TO, describeCarrierContract } from '../src/testing/carrier-contract';
import { startFakeEasyPost } from '../src/testing/fake-easypost';

describeCarrierContract('sandbox-usps', async () => {
  const carrier = createSandboxCarrier();
  return { carrier, undeliverable: { ...CONTRACT_TO, street1: 'Main Street' }, close: () => carrier.close() };
});

describeCarrierContract('test-parcel', async () => {
  const carrier = createTestParcelCarrier();
  return { carrier, close: () => carrier.close() };
});

describeCarrierContract('easypost', async () => {
  const fake = await startFakeEasyPost();
  const carrier = createEasyPostCarrier({
    settings: easyPostSettings({ EASYPOST_API_KEY: fake.testKey, EASYPOST_API_BASE_URL: fake.url }),
    memory: createProcessMemory(),
  });
  return {
    carrier,
    purchases: () => fake.buys,
    // No house number: EasyPost's E.HOUSE_NUMBER.MISSING.
    undeliverable: { ...CONTRACT_TO, street1: 'Amphitheatre Pkwy' },
    close: async () => {
      await carrier.close();
      await fake.close();
    },
  };
});
