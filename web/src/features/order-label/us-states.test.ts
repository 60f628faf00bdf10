import { US_STATES as SHARED_US_STATES } from '@flatship/proto';
import { expect, it } from 'vitest';
import { US_STATES } from './us-states';

it('lists exactly the states the server accepts', () => {
  expect(US_STATES).toEqual(SHARED_US_STATES);
  expect(US_STATES).toHaveLength(50);
});
