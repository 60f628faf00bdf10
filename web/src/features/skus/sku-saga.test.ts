import type { Sku } from '@flatship/proto';
import type { UnknownAction } from '@reduxjs/toolkit';
import { HttpResponse, http } from 'msw';
import { runSaga } from 'redux-saga';
import { describe, expect, it } from 'vitest';
import { api } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { saveSkuPreset } from './sku-saga';
import { skusLoaded } from './sku-slice';

const server = setupTestServer();

const PRESET = { sku: 'MUG-01', maxQty: 3, weight: 1.2, length: 9, width: 7, height: 5, description: 'Mug' };

async function run(userId: string) {
  const dispatched: UnknownAction[] = [];
  const task = runSaga({ dispatch: (action: UnknownAction) => dispatched.push(action) }, saveSkuPreset, userId, PRESET);
  const saved: boolean = await task.toPromise();
  return { saved, dispatched };
}

describe('saveSkuPreset (the bulk screen saves an edited row’s SKU)', () => {
  it('upserts the preset as a list of one and puts the server’s list in the store', async () => {
    const bodies: unknown[] = [];
    const list: Sku[] = [{ _id: 's-1', ...PRESET }];
    server.use(
      http.post(api('auth/add-sku/:userId'), async ({ request, params }) => {
        expect(params.userId).toBe('u-1');
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'New SKU Data Added', SkuData: list });
      }),
    );
    const { saved, dispatched } = await run('u-1');
    expect(saved).toBe(true);
    expect(bodies).toEqual([{ parsedData: [PRESET], upsert: true }]);
    expect(dispatched).toEqual([skusLoaded(list)]);
  });

  it('returns false and changes nothing when the SKU call fails', async () => {
    server.use(
      http.post(api('auth/add-sku/:userId'), () =>
        HttpResponse.json({ code: 'SKU_INVALID', message: 'Weight must be greater than 0' }, { status: 400 }),
      ),
    );
    const { saved, dispatched } = await run('u-1');
    expect(saved).toBe(false);
    expect(dispatched).toEqual([]);
  });
});
