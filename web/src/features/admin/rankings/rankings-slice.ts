import {
  RANKINGS_DEFAULT_QUERY,
  type RankingLimit,
  type RankingPeriod,
  type RankingSort,
  type RankingsReply,
} from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface RankingsControls {
  period: RankingPeriod;
  limit: RankingLimit;
  startDate: string;
  endDate: string;
  sort: RankingSort;
  order: 'asc' | 'desc';
}

export interface RankingsState {
  controls: RankingsControls;
  reply: RankingsReply | null;
  isLoading: boolean;
}

export const initialRankingsControls: RankingsControls = {
  period: RANKINGS_DEFAULT_QUERY.period,
  limit: RANKINGS_DEFAULT_QUERY.limit,
  startDate: '',
  endDate: '',
  sort: RANKINGS_DEFAULT_QUERY.sort,
  order: RANKINGS_DEFAULT_QUERY.order,
};

const initialState: RankingsState = { controls: initialRankingsControls, reply: null, isLoading: false };

export const rankingsSlice = createSlice({
  name: 'rankings',
  initialState,
  reducers: {
    /** Changes some controls; the saga fetches when the controls make a complete query. */
    rankingsControlsChanged(state, action: PayloadAction<Partial<RankingsControls>>) {
      state.controls = { ...state.controls, ...action.payload };
    },
    /** Fetch with the current controls (opening the page, or Apply for a custom period). */
    rankingsRequested(state) {
      state.isLoading = true;
    },
    rankingsLoaded(state, action: PayloadAction<RankingsReply>) {
      state.reply = action.payload;
      state.isLoading = false;
    },
    rankingsFailed(state) {
      state.isLoading = false;
    },
  },
});

export const { rankingsControlsChanged, rankingsRequested, rankingsLoaded, rankingsFailed } = rankingsSlice.actions;
export const rankingsReducer = rankingsSlice.reducer;
