import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FavouriteDTO } from '../types';
import { favouritesSlice } from './lists';

// 'Map all Favourites' (spec 1 §2): the favourites list is paged (15), the map shows them all,
// so it reads them in one request of its own when the member opens it.

export interface FavouritesMapState {
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  items: FavouriteDTO[];
  count: number;
}

export const initialFavouritesMap: FavouritesMapState = { status: 'idle', items: [], count: 0 };

export const favouritesMapSlice = createSlice({
  name: 'favouritesMap',
  initialState: initialFavouritesMap,
  reducers: {
    requested(state) {
      state.status = 'loading';
    },
    loaded(state, action: PayloadAction<{ items: FavouriteDTO[]; count: number }>) {
      state.status = 'loaded';
      state.items = action.payload.items;
      state.count = action.payload.count;
    },
    failed(state) {
      state.status = 'failed';
    },
  },
  extraReducers: (b) =>
    // A favourite deleted from the list leaves the map too.
    b.addCase(favouritesSlice.actions.itemDeleted, (state, action) => {
      const before = state.items.length;
      state.items = state.items.filter((f) => f.id !== action.payload);
      if (state.items.length < before) state.count = Math.max(0, state.count - 1);
    }),
});

export const favouritesMapActions = favouritesMapSlice.actions;
