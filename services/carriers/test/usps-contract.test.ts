import { CONTRACT_TO, describeCarrierContract } from '../src/testing/carrier-contract';
import { startFakeUsps } from '../src/testing/fake-usps';
import { createUspsCarrier } from '../src/usps-api/usps-carrier';

describeCarrierContract('usps (against the fake USPS)', async () => {
  const fake = await startFakeUsps();
  const carrier = createUspsCarrier({ baseUrl: fake.url, ...fake.credentials, timeoutMs: 10_000 });
  return {
    carrier,
    purchases: () => fake.purchases,
    undeliverable: { ...CONTRACT_TO, street1: '1 Nowhere Rd' },
    close: async () => {
      await carrier.close();
      await fake.close();
    },
  };
});
