import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Page } from '../../../shared/dto';
import type { EventsHubInitialState, HubEvent } from '../../../shared/events-hub';
import { EVENTS_HUB } from '../../../shared/constants';

// The hub's state: the day shown (null: upcoming), the events loaded from `startOffset` on,
// and the count. Choosing a day reloads from offset 0 while the old list stays on screen
// (dimmed); load-more appends from the next offset. An answer for a day no longer chosen, or
// for an offset already past, is dropped, so a slow response never mixes two days.

/** failedDay: the day could not load (its old list still shows); failedMore: a load-more failed. */
export type HubStatus = 'idle' | 'loading' | 'loadingMore' | 'failedDay' | 'failedMore';

export interface HubState {
  date: string | null;
  today: string;
  startOffset: number;
  items: HubEvent[];
  count: number;
  status: HubStatus;
  canAdd: boolean;
}

export function initialHubState(initial: EventsHubInitialState): HubState {
  return { date: initial.date, today: initial.today, startOffset: initial.offset, items: initial.results, count: initial.count, status: 'idle', canAdd: initial.canAdd };
}

export const hubSlice = createSlice({
  name: 'hub',
  initialState: initialHubState({ date: null, today: '', offset: 0, count: 0, results: [], canAdd: false }),
  reducers: {
    /** `push`: a choice of the reader (a new history entry); false when going back or forward. */
    dateChosen: {
      reducer(state, action: PayloadAction<{ date: string | null; push: boolean }>) {
        state.date = action.payload.date;
        state.startOffset = 0;
        state.status = 'loading';
      },
      prepare: (date: string | null, push = true) => ({ payload: { date, push } }),
    },
    dayLoaded(state, action: PayloadAction<{ date: string | null; page: Page<HubEvent> }>) {
      if (action.payload.date !== state.date) return;
      state.items = action.payload.page.results;
      state.count = action.payload.page.count;
      state.startOffset = 0;
      state.status = 'idle';
    },
    moreRequested(state) {
      if (state.status === 'idle' || state.status === 'failedMore') state.status = 'loadingMore';
    },
    moreLoaded(state, action: PayloadAction<{ date: string | null; offset: number; page: Page<HubEvent> }>) {
      const { date, offset, page } = action.payload;
      if (date !== state.date || offset !== state.startOffset + state.items.length) return;
      const seen = new Set(state.items.map((e) => e.id));
      state.items.push(...page.results.filter((e) => !seen.has(e.id)));
      state.count = page.count;
      state.status = 'idle';
    },
    failed(state, action: PayloadAction<{ date: string | null; during: 'day' | 'more' }>) {
      if (action.payload.date === state.date) state.status = action.payload.during === 'day' ? 'failedDay' : 'failedMore';
    },
  },
});

export const hub = hubSlice.actions;

/** The offset the next load-more asks for, or null when every event is loaded. */
export function nextOffset(s: HubState): number | null {
  const next = s.startOffset + s.items.length;
  return next < s.count ? next : null;
}

/** Featured: the day's first events (only on the first page); the list goes on after them. */
export function splitFeatured(s: HubState): { featured: HubEvent[]; rest: HubEvent[] } {
  if (s.startOffset > 0) return { featured: [], rest: s.items };
  return { featured: s.items.slice(0, EVENTS_HUB.featuredCount), rest: s.items.slice(EVENTS_HUB.listInitialOffset) };
}

/** The URL of a day (or of the upcoming list). */
export function hubUrl(date: string | null): string {
  return date ? `/events/?date=${date}` : '/events/';
}
