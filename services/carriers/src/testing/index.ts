export {
  type CarrierContractFixture,
  CONTRACT_FROM,
  CONTRACT_TO,
  describeCarrierContract,
} from './carrier-contract';
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
