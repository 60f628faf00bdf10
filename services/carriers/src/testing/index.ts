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
