import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { filters } from './filters';

// The place type-ahead of the keyword field (spec 2 §2 "place suggestion", §5 "Type-ahead"):
// what was typed, the street addresses, subway stations and neighbourhoods the geocoder knows
// by it (issue 25) and the places whose names match (prefix first, then substring: the API's
// keyword order), and whether the list is showing. An answer for older text is ignored, so a
// slow reply never replaces the list of what is typed now. 'No results found' is `done` with
// no items.

/** What a suggestion is (issue 25): a place we list, or a point the geocoder knows. */
export type SuggestionKind = 'place' | 'address' | 'station' | 'neighbourhood';

/** A suggestion searched around when chosen; `id` is the listing's for a place, else 0. */
export interface SuggestedPlace {
  kind: SuggestionKind;
  id: number;
  name: string;
  address: string;
  lat: number;
  long: number;
}

/** The mark each kind of suggestion carries in the list. */
export const SUGGESTION_KIND_LABELS: Record<SuggestionKind, string> = { place: 'Place', address: 'Address', station: 'Station', neighbourhood: 'Neighbourhood' };

export type SuggestionStatus = 'idle' | 'loading' | 'done' | 'failed';

export interface SuggestionsState {
  text: string;
  items: SuggestedPlace[];
  status: SuggestionStatus;
  open: boolean;
  /** The field shows this chosen place's name (so a filter that resets the place empties it). */
  place: string | null;
}

/** Fewer letters than this suggest nothing (one letter matches half the city). */
export const SUGGEST_MIN_CHARS = 2;
/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DEBOUNCE_MS = 250;
/** How many places the list offers. */
export const SUGGEST_LIMIT = 8;

export const initialSuggestions = (text = '', place: string | null = null): SuggestionsState => ({ text, items: [], status: 'idle', open: false, place });

export const suggestionsSlice = createSlice({
  name: 'suggestions',
  initialState: initialSuggestions(),
  reducers: {
    /** The visitor typed: the list opens once there is enough to look up. */
    textTyped(state, action: PayloadAction<string>) {
      state.text = action.payload;
      state.place = null;
      const enough = action.payload.trim().length >= SUGGEST_MIN_CHARS;
      state.status = enough ? 'loading' : 'idle';
      state.open = enough;
      if (!enough) state.items = [];
    },
    loaded(state, action: PayloadAction<{ text: string; items: SuggestedPlace[] }>) {
      if (action.payload.text !== state.text) return;
      state.items = action.payload.items;
      state.status = 'done';
    },
    failed(state, action: PayloadAction<{ text: string }>) {
      if (action.payload.text !== state.text) return;
      state.items = [];
      state.status = 'failed';
    },
    /** A choice, Esc or leaving the field: the list closes, the text stays. */
    closed(state) {
      state.open = false;
    },
    reopened(state) {
      state.open = state.text.trim().length >= SUGGEST_MIN_CHARS;
    },
    /** The field's text is set from outside: a chosen place's name, or cleared. */
    textSet(state, action: PayloadAction<{ text: string; place?: boolean }>) {
      state.text = action.payload.text;
      state.place = action.payload.place ? action.payload.text : null;
      state.items = [];
      state.status = 'idle';
      state.open = false;
    },
  },
  extraReducers: (builder) => {
    // Spec 2 §4: a neighbourhood, a subway stop or Nearby resets the suggestion; its name goes too.
    builder.addMatcher(isAnyOf(filters.neighbourhoodChosen, filters.subwayStopChosen, filters.nearbyLocated), (state) => {
      if (state.place === null) return;
      state.text = '';
      state.place = null;
      state.open = false;
    });
  },
});

export const suggestions = suggestionsSlice.actions;

/** The message the open list shows instead of places, if any. */
export function suggestionsMessage(s: SuggestionsState): string | null {
  if (s.status === 'loading' && s.items.length === 0) return 'Searching…';
  if (s.status === 'failed') return 'Suggestions could not be loaded.';
  if (s.status === 'done' && s.items.length === 0) return 'No results found';
  return null;
}
