import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  DEFAULT_SITE_SEARCH,
  siteSearchLimit,
  type SearchIslandState,
  type SiteSearchAnswer,
  type SiteSearchCategory,
  type SiteSearchOrdering,
  type SiteSearchParams,
} from '../../../shared/site-search';
import type { QueryValue } from '../../common/api';

// The search app's state (spec 2 §2 "Search app", §8): the parameters that are also the URL,
// what the last search answered, and its status. Rules:
// - a new query, category or ordering starts again at offset 0; a page keeps the rest;
// - an empty query searches nothing and shows just the form;
// - each change bumps `generation`; an answer for an older generation is dropped (a slow
//   answer never overwrites a newer one);
// - a failed search clears the list (spec §8: "the list cleared"), with no message.

export type SearchStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface SearchState {
  params: SiteSearchParams;
  result: SiteSearchAnswer | null;
  status: SearchStatus;
  generation: number;
  /** The categories switched on (the category tabs). */
  categories: SiteSearchCategory[];
  /** Per-category counts of the last search of everything, for the tabs while one category is shown. */
  allCounts: { q: string; counts: SiteSearchAnswer['counts'] } | null;
}

export function initialSearchState(initial: SearchIslandState): SearchState {
  return {
    params: initial.params,
    result: initial.result,
    status: initial.result ? 'succeeded' : 'idle',
    generation: 0,
    categories: initial.categories,
    allCounts: initial.result && initial.params.categories === 'all' ? { q: initial.params.q, counts: initial.result.counts } : null,
  };
}

/** The API query for the parameters (spec 2 §7: serialize_for=web, q, offset, categories, ordering, limit). */
export function apiQuery(p: SiteSearchParams): Record<string, QueryValue> {
  return {
    serialize_for: 'web',
    q: p.q,
    offset: p.offset || null,
    categories: p.categories === 'all' ? null : p.categories,
    ordering: p.ordering,
    limit: siteSearchLimit(p.ordering),
  };
}

function begin(state: SearchState, params: SiteSearchParams) {
  state.params = params;
  state.generation += 1;
  if (params.q) state.status = 'loading';
  else {
    state.status = 'idle';
    state.result = null;
  }
}

export const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState({ params: DEFAULT_SITE_SEARCH, result: null, categories: [] }),
  reducers: {
    submitted(state, action: PayloadAction<string>) {
      begin(state, { ...state.params, q: action.payload.trim(), offset: 0 });
    },
    categoryChosen(state, action: PayloadAction<string>) {
      begin(state, { ...state.params, categories: action.payload || 'all', offset: 0 });
    },
    orderingChosen(state, action: PayloadAction<SiteSearchOrdering>) {
      begin(state, { ...state.params, ordering: action.payload, offset: 0 });
    },
    offsetChosen(state, action: PayloadAction<number>) {
      begin(state, { ...state.params, offset: Math.max(0, action.payload) });
    },
    /** Back or forward: the parameters of that history entry (its URL). */
    restored(state, action: PayloadAction<SiteSearchParams>) {
      begin(state, action.payload);
    },
    loaded(state, action: PayloadAction<{ generation: number; result: SiteSearchAnswer }>) {
      if (action.payload.generation !== state.generation) return;
      state.result = action.payload.result;
      state.status = 'succeeded';
      if (state.params.categories === 'all') state.allCounts = { q: state.params.q, counts: action.payload.result.counts };
    },
    failed(state, action: PayloadAction<{ generation: number }>) {
      if (action.payload.generation !== state.generation) return;
      state.result = null;
      state.status = 'failed';
    },
  },
});

export const search = searchSlice.actions;

/** The count shown on a category tab ('all' included), when known for the query shown. */
export function tabCount(state: SearchState, category: string): number | null {
  const known = state.allCounts && state.allCounts.q === state.params.q ? state.allCounts.counts : null;
  if (!known) return state.params.categories === category && state.result ? state.result.count : null;
  if (category === 'all') return Object.values(known).reduce((a, b) => a + (b ?? 0), 0);
  return known[category as SiteSearchCategory] ?? 0;
}

/** The results of a page in groups by category, each in the order of its first result (spec: grouped by category). */
export function groupByCategory<T extends { category: string }>(results: readonly T[]): Array<{ category: string; results: T[] }> {
  const groups = new Map<string, T[]>();
  for (const r of results) groups.set(r.category, [...(groups.get(r.category) ?? []), r]);
  return [...groups].map(([category, rs]) => ({ category, results: rs }));
}

/** The actions that change the parameters (each is a new search). */
export const PARAM_ACTIONS = [search.submitted, search.categoryChosen, search.orderingChosen, search.offsetChosen, search.restored];
