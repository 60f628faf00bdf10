// Test doubles of the carriers we talk to, for this package's tests and for services that buy through them.
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
