import { createIslandStore } from '../common/store';
import type { SearchApi } from './api';
import { searchSaga } from './sagas';
import { initialSearchState, searchSlice, type SearchState } from './slices/search';
import type { SearchIslandState } from '../../shared/site-search';

export interface SearchAppState {
  search: SearchState;
}

/** What the sagas use from the outside world; tests replace every part. */
export interface SearchContext {
  api: SearchApi;
  /** history.pushState: each search is a history entry, so back and forward restore it. */
  pushUrl(url: string): void;
  /** Spec 2 §8: a failed search is logged in debug mode only. */
  debug(err: unknown): void;
}

export function createSearchStore(initial: SearchIslandState, context: SearchContext) {
  return createIslandStore<SearchAppState>({
    reducer: { search: searchSlice.reducer },
    saga: searchSaga,
    preloadedState: { search: initialSearchState(initial) },
    context: { ...context },
  });
}

export type SearchStore = ReturnType<typeof createSearchStore>;

export const browserContext = (api: SearchApi, debug: SearchContext['debug']): SearchContext => ({
  api,
  pushUrl: (url) => {
    if (url !== window.location.pathname + window.location.search) window.history.pushState({ search: true }, '', url);
  },
  debug,
});
