import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ProfileCountsDTO } from '../../../shared/dto';
import { COUNT_FIELD, LIST_SLICES, ratingCreated, todoCompleted, type ListName } from './lists';

// The profile counts of the home boxes (spec 1 §3). Printed by the page; null shows the
// loading placeholder until they arrive. They follow the lists: a loaded page brings the
// server's total, a deletion or completion moves it by one.

export type CountsState = ProfileCountsDTO | null;

export const countsSlice = createSlice({
  name: 'counts',
  initialState: null as CountsState,
  reducers: {
    countsLoaded: (_state, action: PayloadAction<ProfileCountsDTO>) => action.payload,
  },
  extraReducers: (b) => {
    for (const [name, field] of Object.entries(COUNT_FIELD) as Array<[ListName, keyof ProfileCountsDTO]>) {
      const slice = LIST_SLICES[name];
      b.addCase(slice.actions.pageLoaded, (state, a) => {
        if (state) state[field] = a.payload.page.count;
      });
      b.addCase(slice.actions.itemDeleted, (state) => {
        if (state) state[field] = Math.max(0, state[field] - 1);
      });
    }
    b.addCase(todoCompleted, (state) => {
      if (state) state.todos_count = Math.max(0, state.todos_count - 1);
    });
    b.addCase(ratingCreated, (state) => {
      if (state) state.ratings_count += 1;
    });
  },
});

export const { countsLoaded } = countsSlice.actions;
