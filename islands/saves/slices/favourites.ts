import { createSlice } from '@reduxjs/toolkit';
import { emptySaveMap, saveMapReducers, type SaveMapState } from './save-map';

/** Listing id → favourite id (GET /api/v2/favourites/listing_ids/). */
export type FavouritesState = SaveMapState<number>;

export const favouritesSlice = createSlice({
  name: 'favourites',
  initialState: emptySaveMap<number>(),
  reducers: saveMapReducers<number, FavouritesState>((s) => s),
});

export const favourites = favouritesSlice.actions;
