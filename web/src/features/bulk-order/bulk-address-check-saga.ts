import type { BulkRow } from '@flatship/order-files/rows';
import { type AddressCheck, type AddressToCheck, VERIFY_BATCH_MAX, type VerifyAddressesReply } from '@flatship/proto';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { toastShown } from '../../components/toast-slice';
import { isComplete } from '../address-check/address-check';
import { addressCheckApi } from '../address-check/address-check-api';
import { selectOpenCorrections } from './bulk-address-check-selectors';
import {
  addressCheckFailed,
  addressCheckFinished,
  addressCheckRequested,
  addressCheckStarted,
  addressChunkChecked,
  allCorrectionsAccepted,
  correctionChanges,
  correctionsAccepted,
} from './bulk-address-check-slice';
import { selectBulkRows, selectBulkServiceUid } from './bulk-order-selectors';
import { rowsEdited } from './bulk-order-slice';

/** Addresses per call: small enough for the progress bar to move on a 100-row file, within the server's 100. */
export const CHECK_CHUNK_SIZE = Math.min(25, VERIFY_BATCH_MAX);

const recipientOf = (row: BulkRow): AddressToCheck => ({
  name: row.ToRecipientName,
  company: row.ToCompany,
  street1: row.ToStreet1,
  street2: row.ToStreet2,
  city: row.ToCity,
  state: row.ToStateProvince,
  zip: row.ToZipPostal,
});

/**
 * "Check addresses": every row with a complete recipient address, a chunk at a time (one call in flight, so the
 * carrier is never flooded), the progress bar moving with each answer. A failed call stops the pass and says why.
 */
export function* checkFileAddresses(): SagaIterator {
  const rows: BulkRow[] = yield select(selectBulkRows);
  const serviceUid: string = yield select(selectBulkServiceUid);
  const checkable = rows.filter((row) => isComplete(recipientOf(row)));
  yield put(addressCheckStarted({ total: checkable.length }));
  for (let start = 0; start < checkable.length; start += CHECK_CHUNK_SIZE) {
    const chunk = checkable.slice(start, start + CHECK_CHUNK_SIZE);
    try {
      const reply: VerifyAddressesReply = yield call(
        addressCheckApi.verifyMany,
        chunk.map(recipientOf),
        serviceUid || undefined,
      );
      const byId: Record<string, AddressCheck> = {};
      chunk.forEach((row, i) => {
        const result = reply.results[i];
        if (result) byId[row._id] = result;
      });
      yield put(addressChunkChecked(byId));
    } catch (error) {
      yield put(addressCheckFailed());
      yield put(toastShown({ kind: 'error', message: errorMessage(error, 'The addresses could not be checked') }));
      return;
    }
  }
  yield put(addressCheckFinished());
}

export function* acceptAllCorrections(): SagaIterator {
  const open: { id: string; address: NonNullable<AddressCheck['address']> }[] = yield select(selectOpenCorrections);
  if (open.length === 0) return;
  yield put(rowsEdited(open.map(({ id, address }) => ({ id, changes: correctionChanges(address) }))));
  yield put(correctionsAccepted(open.map((o) => o.id)));
}

export function* bulkAddressCheckSaga(): SagaIterator {
  yield all([
    // One pass at a time: a second click while one runs is ignored.
    takeLeading(addressCheckRequested.type, checkFileAddresses),
    takeLeading(allCorrectionsAccepted.type, acceptAllCorrections),
  ]);
}
