import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RatingEntry } from '../types';
import { emptySaveMap, saveMapReducers, type SaveMapState } from './save-map';

/** Listing id → {id, rating} (GET /api/v2/ratings/listing_ids/); `thanked` shows 'Thanks for rating!'. */
export interface RatingsState extends SaveMapState<RatingEntry> {
  thanked: Record<string, true>;
}

const initialState: RatingsState = { ...emptySaveMap<RatingEntry>(), thanked: {} };

export const ratingsSlice = createSlice({
  name: 'ratings',
  initialState,
  reducers: {
    ...saveMapReducers<RatingEntry, RatingsState>((s) => s),
    /** A star chosen and confirmed: the saga creates or updates the rating. */
    rateRequested: (_s, _a: PayloadAction<{ listingId: number; rating: number }>) => {},
    thanksChanged(state, action: PayloadAction<{ objectId: number; shown: boolean }>) {
      if (action.payload.shown) state.thanked[String(action.payload.objectId)] = true;
      else delete state.thanked[String(action.payload.objectId)];
    },
  },
});

export const ratings = ratingsSlice.actions;
