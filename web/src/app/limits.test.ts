import { LIMITS as SHARED_LIMITS } from '@flatship/proto';
import { expect, it } from 'vitest';
import { LIMITS } from './limits';

it('matches the limits the server enforces', () => {
  expect(LIMITS).toEqual(SHARED_LIMITS);
});
