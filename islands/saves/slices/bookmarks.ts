import { createSlice } from '@reduxjs/toolkit';
import { emptySaveMap, saveMapReducers, type SaveMapState } from './save-map';

/** Article, video and event id → bookmark id (the *_ids endpoints of spec 1 §7). */
export type BookmarkKind = 'articles' | 'videos' | 'events';

export type BookmarksState = Record<BookmarkKind, SaveMapState<number>>;

const initialState: BookmarksState = { articles: emptySaveMap(), videos: emptySaveMap(), events: emptySaveMap() };

export const bookmarksSlice = createSlice({
  name: 'bookmarks',
  initialState,
  reducers: saveMapReducers<number, BookmarksState, { kind: BookmarkKind }>((s, p) => s[p.kind]),
});

export const bookmarks = bookmarksSlice.actions;
