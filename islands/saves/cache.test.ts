/// <reference types="jest" />
import { writeItem, STORAGE_KEYS, clearStores } from '../common/storage';
import { dropCachedMap, isFresh, readCachedMap, recordOwnChange, writeCachedMap } from './cache';

describe('the cached saved-id maps', () => {
  beforeEach(() => localStorage.clear());

  test('a map is fresh until the server reports a later change of its kind', () => {
    const cached = { map: { 1: 10 }, updatedAt: '2026-11-01T10:00:00.000Z' };
    expect(isFresh(cached, null)).toBe(true);
    expect(isFresh(cached, '2026-11-01T10:00:00.000Z')).toBe(true);
    expect(isFresh(cached, '2026-11-01T10:00:00.001Z')).toBe(false);
    expect(isFresh(null, null)).toBe(false);
    expect(isFresh({ map: {}, updatedAt: null }, '2026-11-01T10:00:00.000Z')).toBe(false);
  });

  test('reads back what it wrote under the spec keys, ignores other shapes, and is cleared with the other stores', () => {
    writeCachedMap('favourites', { 3: 30 }, '2026-11-01T10:00:00.000Z');
    expect(localStorage.getItem(STORAGE_KEYS.favourites)).toContain('"3":30');
    expect(readCachedMap('favourites')).toEqual({ map: { 3: 30 }, updatedAt: '2026-11-01T10:00:00.000Z' });
    writeItem(STORAGE_KEYS.todos, { 5: true });
    expect(readCachedMap('todos')).toBeNull();
    writeCachedMap('articleBookmarks', {}, null);
    clearStores();
    expect(readCachedMap('favourites')).toBeNull();
    expect(readCachedMap('articleBookmarks')).toBeNull();
  });

  test("the member's own change keeps the cache, stamped with the server's time of it; no cache stays none", () => {
    writeCachedMap('ratings', {}, '2026-11-01T10:00:00.000Z');
    recordOwnChange('ratings', { 4: { id: 1, rating: 5 } }, '2026-11-02T10:00:00.000Z');
    expect(readCachedMap('ratings')).toEqual({ map: { 4: { id: 1, rating: 5 } }, updatedAt: '2026-11-02T10:00:00.000Z' });
    dropCachedMap('ratings');
    recordOwnChange('ratings', { 4: { id: 1, rating: 5 } }, '2026-11-03T10:00:00.000Z');
    expect(readCachedMap('ratings')).toBeNull();
  });
});
