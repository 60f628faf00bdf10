import { RANKINGS_CUSTOM_DATES_MESSAGE, type RankingsQuery, type RankingsReply } from '@flatship/proto';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { serverMessage } from '../../../app/server-message';
import type { RootState } from '../../../app/store';
import { toastShown } from '../../../components/toast-slice';
import { fetchRankings } from './rankings-api';
import { type RankingsControls, rankingsFailed, rankingsLoaded, rankingsRequested } from './rankings-slice';

/** Spec doc 3 §8. */
export const RANKINGS_FETCH_FAILED = 'Failed to fetch rankings';

export function queryOf(c: RankingsControls): RankingsQuery {
  return {
    period: c.period,
    limit: c.limit,
    sort: c.sort,
    order: c.order,
    ...(c.period === 'custom' ? { startDate: c.startDate, endDate: c.endDate } : {}),
  };
}

export function* loadRankings(): SagaIterator {
  const controls: RankingsControls = yield select((s: RootState) => s.rankings.controls);
  if (controls.period === 'custom' && (!controls.startDate || !controls.endDate)) {
    yield put(rankingsFailed());
    yield put(toastShown({ kind: 'error', message: RANKINGS_CUSTOM_DATES_MESSAGE }));
    return;
  }
  try {
    const reply: RankingsReply = yield call(fetchRankings, queryOf(controls));
    yield put(rankingsLoaded(reply));
  } catch (error) {
    console.error('Rankings: loading failed', error);
    yield put(rankingsFailed());
    // A refused period (dates the other way round, say) is told in the server's words under the spec's text.
    yield put(
      toastShown({ kind: 'error', message: RANKINGS_FETCH_FAILED, detail: serverMessage(error, { statuses: [400] }) }),
    );
  }
}

export function* rankingsSaga(): SagaIterator {
  // A newer request replaces one still on its way, so the table always shows the last controls chosen.
  yield takeLatest(rankingsRequested.type, loadRankings);
}
