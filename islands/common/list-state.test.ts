/// <reference types="jest" />
import { createListSlice, initialListState, nextOffset, type ListState } from './list-state';

type Item = { id: number; name: string };
const slice = createListSlice<Item>('things', { limit: 2, ordering: '-date_created' });
const { pageRequested, pageLoaded, pageFailed, deleteRequested, itemDeleted, deleteFailed } = slice.actions;
const run = (state: ListState<Item>, ...actions: Array<{ type: string }>) => actions.reduce((s, a) => slice.reducer(s, a), state);
const items = (...ids: number[]) => ids.map((id) => ({ id, name: `n${id}` }));
const page = (ids: number[], count: number) => ({ count, next: null, previous: null, results: items(...ids) });

describe('the list state factory', () => {
  test('starts not loaded (count -1) and counts pending requests up on send and down on receipt', () => {
    const s0 = initialListState<Item>(2, '-date_created');
    expect(s0.count).toBe(-1);
    const s1 = run(s0, pageRequested({ offset: 0 }));
    expect(s1).toMatchObject({ isFetching: true, pending: 1, status: 'loading' });
    const s2 = run(s1, pageLoaded({ offset: 0, page: page([1, 2], 5) }));
    expect(s2).toMatchObject({ isFetching: false, pending: 0, count: 5, status: 'succeeded' });
    expect(nextOffset(s2)).toBe(2);
  });

  test('pages append by offset; a new ordering reloads from offset 0', () => {
    let s = run(initialListState<Item>(2, '-date_created'), pageRequested({ offset: 0 }), pageLoaded({ offset: 0, page: page([1, 2], 3) }));
    s = run(s, pageRequested({ offset: 2 }), pageLoaded({ offset: 2, page: page([3], 3) }));
    expect(s.items.map((i) => i.id)).toEqual([1, 2, 3]);
    expect(nextOffset(s)).toBeNull();
    s = run(s, pageRequested({ offset: 2, ordering: 'name' }));
    expect(s.params).toMatchObject({ offset: 0, ordering: 'name' });
    s = run(s, pageLoaded({ offset: 0, page: page([3, 2], 3) }));
    expect(s.items.map((i) => i.id)).toEqual([3, 2]);
  });

  test('a deleted item leaves the list; count and offset each drop by 1', () => {
    let s = run(initialListState<Item>(2), pageRequested({ offset: 2 }), pageLoaded({ offset: 2, page: page([1, 2], 4) }));
    s = run(s, deleteRequested(1));
    expect(s.pending).toBe(1);
    s = run(s, itemDeleted(1));
    expect(s).toMatchObject({ count: 3, pending: 0, params: expect.objectContaining({ offset: 1 }) });
    expect(s.items.map((i) => i.id)).toEqual([2]);
  });

  test('failures leave the data unchanged', () => {
    const loaded = run(initialListState<Item>(2), pageRequested(), pageLoaded({ offset: 0, page: page([1], 1) }));
    const failed = run(loaded, pageRequested({ offset: 0 }), pageFailed(), deleteRequested(1), deleteFailed(1));
    expect(failed.items).toEqual(loaded.items);
    expect(failed.count).toBe(1);
    expect(failed.pending).toBe(0);
  });
});
