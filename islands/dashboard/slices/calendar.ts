import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CalendarStatusDTO } from '../../../shared/dto';

// Calendar Settings (spec 1 §2 "Saved events"; issue 13): whether Google is configured and
// connected, and the member's private ICS link. Read when the events view opens.

export interface CalendarState {
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  data: CalendarStatusDTO | null;
  feedStatus: 'idle' | 'saving' | 'failed';
}

export const initialCalendarState: CalendarState = { status: 'idle', data: null, feedStatus: 'idle' };

export const calendarSlice = createSlice({
  name: 'calendar',
  initialState: initialCalendarState,
  reducers: {
    statusRequested(state) {
      state.status = 'loading';
    },
    statusLoaded(state, action: PayloadAction<CalendarStatusDTO>) {
      state.status = 'loaded';
      state.data = action.payload;
    },
    statusFailed(state) {
      state.status = 'failed';
    },
    /** 'Get my calendar link' or 'Make a new link' (the old URL stops working). */
    feedRequested(state) {
      state.feedStatus = 'saving';
    },
    feedMade(state, action: PayloadAction<CalendarStatusDTO['feed']>) {
      state.feedStatus = 'idle';
      if (state.data) state.data.feed = action.payload;
    },
    feedFailed(state) {
      state.feedStatus = 'failed';
    },
  },
});

export const calendarActions = calendarSlice.actions;
