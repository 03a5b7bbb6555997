import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// The profile panel, the search panel and the side menu: at most one is open (spec 2 §2).
// The search panel opens after a 100 ms delay, so opening it is a request the saga completes.

export type PanelName = 'profile' | 'search' | 'menu';

export interface PanelsState {
  open: PanelName | null;
  searchPending: boolean;
}

export const initialPanelsState: PanelsState = { open: null, searchPending: false };

export const panelsSlice = createSlice({
  name: 'panels',
  initialState: initialPanelsState,
  reducers: {
    toggled(s, a: PayloadAction<Exclude<PanelName, 'search'>>) {
      s.open = s.open === a.payload ? null : a.payload;
      s.searchPending = false;
    },
    searchToggled(s) {
      if (s.open === 'search' || s.searchPending) {
        s.open = null;
        s.searchPending = false;
      } else {
        // Opening search closes the others at once; the panel itself appears after 100 ms.
        s.open = null;
        s.searchPending = true;
      }
    },
    searchOpened(s) {
      if (s.searchPending) s.open = 'search';
      s.searchPending = false;
    },
    closed(s) {
      s.open = null;
      s.searchPending = false;
    },
  },
});

export const panels = panelsSlice.actions;
