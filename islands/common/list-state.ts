import { createSlice, type ActionReducerMapBuilder, type Draft, type PayloadAction } from '@reduxjs/toolkit';
import type { Page } from '../../shared/dto';

// The list state of spec 1 §3, for any paged list a member keeps (favourites, bookmarks…):
// items, count (-1 = not loaded yet), next/previous, the query params, isFetching and a
// pending-request counter that rises on send and falls on receipt. Pages append by offset; a
// new ordering reloads from offset 0. A removed item leaves the list and count and offset each
// drop by 1, so the next page starts at the right row.

export interface ListParams {
  offset: number;
  limit: number;
  ordering: string | null;
  keywords?: string | null;
  q?: string | null;
  categories?: string | null;
}

export type ListStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface ListState<T> {
  items: T[];
  count: number;
  next: string | null;
  previous: string | null;
  params: ListParams;
  isFetching: boolean;
  pending: number;
  status: ListStatus;
}

export interface PageRequest {
  offset?: number;
  ordering?: string | null;
}

export interface PageLoaded<T> {
  offset: number;
  page: Page<T>;
}

export function initialListState<T>(limit: number, ordering: string | null = null): ListState<T> {
  return { items: [], count: -1, next: null, previous: null, params: { offset: 0, limit, ordering }, isFetching: false, pending: 0, status: 'idle' };
}

/** Helpers the list's own extra reducers may use on a draft. */
export const listDraft = {
  remove<T extends { id: number }>(state: Draft<ListState<T>>, id: number): boolean {
    const before = state.items.length;
    state.items = state.items.filter((i) => i.id !== id);
    if (state.items.length === before) return false;
    if (state.count > 0) state.count -= 1;
    state.params.offset = Math.max(0, state.params.offset - 1);
    return true;
  },
  prepend<T extends { id: number }>(state: Draft<ListState<T>>, item: T): void {
    // CASE: the list was never loaded: it will load with the item in it
    if (state.count < 0) return;
    state.items = [item as Draft<T>, ...state.items.filter((i) => i.id !== item.id)];
    state.count += 1;
  },
};

export function createListSlice<T extends { id: number }>(
  name: string,
  opts: { limit: number; ordering?: string | null; extraReducers?: (builder: ActionReducerMapBuilder<ListState<T>>) => void },
) {
  return createSlice({
    name,
    initialState: initialListState<T>(opts.limit, opts.ordering ?? null),
    reducers: {
      pageRequested(state, action: PayloadAction<PageRequest | undefined>) {
        const req = action.payload ?? {};
        const ordering = req.ordering === undefined ? state.params.ordering : req.ordering;
        // CASE: a new ordering reloads from the start
        state.params.offset = ordering !== state.params.ordering ? 0 : (req.offset ?? 0);
        state.params.ordering = ordering;
        state.isFetching = true;
        state.pending += 1;
        state.status = 'loading';
      },
      pageLoaded(state, action: PayloadAction<PageLoaded<T>>) {
        const { offset, page } = action.payload;
        const results = page.results as Draft<T>[];
        if (offset === 0) state.items = results;
        else {
          const seen = new Set(state.items.map((i) => i.id));
          state.items = [...state.items, ...results.filter((i) => !seen.has(i.id))];
        }
        state.count = page.count;
        state.next = page.next;
        state.previous = page.previous;
        state.isFetching = false;
        state.pending = Math.max(0, state.pending - 1);
        state.status = 'succeeded';
      },
      pageFailed(state) {
        state.isFetching = false;
        state.pending = Math.max(0, state.pending - 1);
        state.status = 'failed';
      },
      deleteRequested(state, _action: PayloadAction<number>) {
        state.pending += 1;
      },
      itemDeleted(state, action: PayloadAction<number>) {
        listDraft.remove(state, action.payload);
        state.pending = Math.max(0, state.pending - 1);
      },
      deleteFailed(state, _action: PayloadAction<number>) {
        state.pending = Math.max(0, state.pending - 1);
      },
      itemUpdated(state, action: PayloadAction<T>) {
        const i = state.items.findIndex((it) => it.id === action.payload.id);
        if (i >= 0) state.items[i] = action.payload as Draft<T>;
      },
      /** Forget what was loaded: the next visit loads afresh. */
      invalidated(state) {
        if (state.pending === 0) state.count = -1;
      },
    },
    extraReducers: (builder) => opts.extraReducers?.(builder),
  });
}

export type ListSlice<T extends { id: number }> = ReturnType<typeof createListSlice<T>>;

/** The offset of the page after the loaded rows (deletions included), or null when all are loaded. */
export function nextOffset(list: ListState<unknown>): number | null {
  if (list.count < 0 || list.items.length >= list.count) return null;
  return list.items.length;
}
