import { SKU_LIMITS as SERVER_LIMITS } from '@flatship/proto';
import { expect, test } from 'vitest';
import { SKU_LIMITS } from './sku-limits';

test('the SKU page uses the server’s SKU limits', () => {
  expect(SKU_LIMITS).toEqual(SERVER_LIMITS);
});
