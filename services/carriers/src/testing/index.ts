// Test doubles of the carriers we talk to, for this package's tests and for services that buy through them.

export {
  type CarrierContractFixture,
  CONTRACT_FROM,
  CONTRACT_TO,
  describeCarrierContract,
} from './carrier-contract';
export {
  easyPostErrorBody,
  FAKE_EASYPOST_PRODUCTION_KEY,
  FAKE_EASYPOST_TEST_KEY,
  type FakeEasyPost,
  type FakeEasyPostOptions,
  type FakeFault,
  type FakeRequestRecord,
  startFakeEasyPost,
} from './fake-easypost';
export {
  type FakeUsps,
  type FakeUspsFault,
  type FakeUspsLabel,
  type FakeUspsOptions,
  type FakeUspsRequest,
  type FakeUspsRoute,
  type LabelAnswerStyle,
  startFakeUsps,
} from './fake-usps';
export { createVirtualClock, runGates, type VirtualClock } from './virtual-clock';
