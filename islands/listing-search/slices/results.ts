import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ListingDTO, Page } from '../../../shared/dto';
import { HUB_PAGE_SIZE as PAGE_LIMIT, type HubPrintedPage } from '../../../shared/listing-hub';

// The result list (spec 2 §3 list state): items, count, next, previous. A criteria change
// starts a new generation and replaces the items when its first page arrives; scrolling to
// the bottom appends the next page. Answers of an older generation are ignored, so a slow
// page 2 never lands in a newer search. startOffset: the page the hub printed (?page=3 starts
// at 80), so later pages continue from there.
//
// printed: the ids of the cards the hub page printed, which the island keeps in the page as they
// are (no second rendering of them) ahead of `items`, the cards it fetched and renders itself.
// A new search replaces them; opening the map fetches them as ListingDTOs (printedLoaded), as
// the map's markers and popups need more than the page's state carries.

export interface ResultsState {
  printed: number[];
  items: ListingDTO[];
  count: number;
  next: string | null;
  previous: string | null;
  startOffset: number;
  limit: number;
  generation: number;
  isFetching: boolean;
  failed: boolean;
}

export function initialResults(page: HubPrintedPage, pageNumber: number): ResultsState {
  return {
    printed: page.ids,
    items: [],
    count: page.count,
    next: page.next,
    previous: page.previous,
    startOffset: Math.max(0, (pageNumber - 1) * PAGE_LIMIT),
    limit: PAGE_LIMIT,
    generation: 0,
    isFetching: false,
    failed: false,
  };
}

export const resultsSlice = createSlice({
  name: 'results',
  initialState: initialResults({ count: 0, next: null, previous: null, ids: [] }, 1),
  reducers: {
    searchStarted(state) {
      state.generation += 1;
      state.isFetching = true;
      state.failed = false;
    },
    nextPageRequested() {},
    pageStarted(state) {
      state.isFetching = true;
    },
    pageLoaded(state, action: PayloadAction<{ generation: number; offset: number; append: boolean; page: Page<ListingDTO> }>) {
      const { generation, offset, append, page } = action.payload;
      if (generation !== state.generation) return;
      if (!append) {
        // A new search: the list starts again at the first page.
        state.printed = [];
        state.items = page.results;
        state.startOffset = offset;
      } else {
        const seen = new Set([...state.printed, ...state.items.map((i) => i.id)]);
        state.items = [...state.items, ...page.results.filter((i) => !seen.has(i.id))];
      }
      state.count = page.count;
      state.next = page.next;
      state.previous = page.previous;
      state.isFetching = false;
    },
    /** The printed cards are wanted as data (not found in the page): printedFlow fetches them. */
    printedWanted() {},
    /** The printed cards as data (the map view asked for them): the list now renders them itself. */
    printedLoaded(state, action: PayloadAction<{ generation: number; page: Page<ListingDTO> }>) {
      const { generation, page } = action.payload;
      if (generation !== state.generation || !state.printed.length) return;
      const later = new Set(state.items.map((i) => i.id));
      state.items = [...page.results.filter((i) => !later.has(i.id)), ...state.items];
      state.printed = [];
      state.failed = false;
    },
    /** The list keeps the printed cards; the map says the results could not be loaded. */
    printedFailed(state, action: PayloadAction<{ generation: number }>) {
      if (action.payload.generation === state.generation) state.failed = true;
    },
    pageFailed(state, action: PayloadAction<{ generation: number; append: boolean }>) {
      if (action.payload.generation !== state.generation) return;
      state.isFetching = false;
      state.failed = true;
      // CASE: a failed new search empties the list (count 0); a failed next page keeps what is shown.
      if (!action.payload.append) {
        state.printed = [];
        state.items = [];
        state.count = 0;
        state.next = null;
        state.previous = null;
      }
    },
  },
});

export const results = resultsSlice.actions;

/** How many cards the list holds: the printed ones and the fetched ones. */
export function loadedCount(s: ResultsState): number {
  return s.printed.length + s.items.length;
}

/** Where the next page starts, or null when everything is loaded. */
export function nextPageOffset(s: ResultsState): number | null {
  const end = s.startOffset + loadedCount(s);
  return end < s.count ? end : null;
}

/** The page number the list has reached (for ?page=). */
export function currentPage(s: ResultsState): number {
  const end = s.startOffset + Math.max(loadedCount(s), 1);
  return Math.max(1, Math.ceil(end / s.limit));
}
