import { createIslandStore } from '../common/store';
import type { ListingSearchApi } from './api';
import { replaceAddressAfterPaint, writePendingAddress } from '../common/address-after-paint';
import { listingSearchSaga } from './sagas';
import { filtersSlice, initialFilters, type FiltersState } from './slices/filters';
import { initialResults, resultsSlice, type ResultsState } from './slices/results';
import { initialSuggestions, suggestionsSlice, type SuggestionsState } from './slices/suggestions';
import type { ListingSearchInitialState } from '../../shared/listing-hub';

export interface ListingSearchState {
  filters: FiltersState;
  results: ResultsState;
  suggestions: SuggestionsState;
}

/** What the sagas use from the outside world; tests replace every part. */
export interface ListingSearchContext {
  api: ListingSearchApi;
  /** Full navigation (a new category is another hub page). */
  navigate(url: string): void;
  /** history.replaceState (after the next paint): the URL keeps the criteria without a reload. */
  replaceUrl(url: string): void;
  currentPath(): string;
  /** The visitor's position for 'Nearby'; rejects on denial. */
  locate(): Promise<{ lat: number; long: number }>;
}

export function createListingSearchStore(initial: ListingSearchInitialState, context: ListingSearchContext) {
  return createIslandStore<ListingSearchState>({
    reducer: { filters: filtersSlice.reducer, results: resultsSlice.reducer, suggestions: suggestionsSlice.reducer },
    saga: listingSearchSaga,
    preloadedState: { filters: initialFilters(initial.params), results: initialResults(initial.results, initial.params.page), suggestions: initialSuggestions(initial.params.keywords ?? '') },
    context: { ...context },
  });
}

export type ListingSearchStore = ReturnType<typeof createListingSearchStore>;

export const browserContext = (api: ListingSearchApi): ListingSearchContext => ({
  api,
  navigate: (url) => {
    writePendingAddress();
    window.location.assign(url);
  },
  replaceUrl: replaceAddressAfterPaint,
  currentPath: () => window.location.pathname,
  locate: () =>
    new Promise((resolve, reject) => {
      if (!('geolocation' in navigator)) return reject(new Error('No geolocation.'));
      navigator.geolocation.getCurrentPosition(
        (p) => resolve({ lat: Math.round(p.coords.latitude * 1e5) / 1e5, long: Math.round(p.coords.longitude * 1e5) / 1e5 }),
        reject,
        { timeout: 15_000, maximumAge: 300_000 },
      );
    }),
});
