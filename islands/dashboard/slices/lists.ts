import { createAction } from '@reduxjs/toolkit';
import type { PhotoDTO, ProfileCountsDTO } from '../../../shared/dto';
import { PAGE_SIZE } from '../../../shared/constants';
import { DEFAULT_SAVE_ORDERING, SAVE_KINDS } from '../../../shared/save-kinds';
import { createListSlice, listDraft } from '../../common/list-state';
import type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from '../types';

// The member's saved things, one list slice each (spec 1 §3 "List state"), plus the events
// that move an item between lists: completing a to-do and rating a place.

/** A to-do was marked done: it leaves the open list and heads the completed one (spec 1 §4). */
export const todoCompleted = createAction<TodoDTO>('todos/itemCompleted');
export const todoCompletionRequested = createAction<number>('todos/completionRequested');
export const todoCompletionFailed = createAction<number>('todos/completionFailed');

/** Stars chosen and confirmed on a completed to-do (create or update the member's rating). */
export const todoRatingRequested = createAction<{ todoId: number; rating: number }>('completedTodos/ratingRequested');
/** Stars confirmed on a rated place. */
export const ratingChangeRequested = createAction<{ id: number; rating: number }>('ratings/changeRequested');
/** A new rating was created (from a completed to-do). */
export const ratingCreated = createAction<RatingDTO>('ratings/itemCreated');

export const favouritesSlice = createListSlice<FavouriteDTO>('favourites', { limit: SAVE_KINDS.favourites.pageSize });

export const todosSlice = createListSlice<TodoDTO>('todos', {
  limit: SAVE_KINDS.todos.pageSize,
  extraReducers: (b) => b.addCase(todoCompleted, (state, a) => void listDraft.remove(state, a.payload.id)),
});

export const completedTodosSlice = createListSlice<TodoDTO>('completedTodos', {
  limit: PAGE_SIZE.completedTodos,
  extraReducers: (b) => b.addCase(todoCompleted, (state, a) => listDraft.prepend(state, a.payload)),
});

export const ratingsSlice = createListSlice<RatingDTO>('ratings', {
  limit: SAVE_KINDS.ratings.pageSize,
  extraReducers: (b) => b.addCase(ratingCreated, (state, a) => listDraft.prepend(state, a.payload)),
});

export const articleBookmarksSlice = createListSlice<ArticleBookmarkDTO>('articleBookmarks', { limit: SAVE_KINDS.articleBookmarks.pageSize, ordering: DEFAULT_SAVE_ORDERING });
export const videoBookmarksSlice = createListSlice<VideoBookmarkDTO>('videoBookmarks', { limit: SAVE_KINDS.videoBookmarks.pageSize, ordering: DEFAULT_SAVE_ORDERING });
export const eventBookmarksSlice = createListSlice<EventBookmarkDTO>('eventBookmarks', { limit: SAVE_KINDS.eventBookmarks.pageSize, ordering: DEFAULT_SAVE_ORDERING });
export const photosSlice = createListSlice<PhotoDTO>('photos', { limit: PAGE_SIZE.photos });

export const LIST_SLICES = {
  favourites: favouritesSlice,
  todos: todosSlice,
  completedTodos: completedTodosSlice,
  ratings: ratingsSlice,
  articleBookmarks: articleBookmarksSlice,
  videoBookmarks: videoBookmarksSlice,
  eventBookmarks: eventBookmarksSlice,
  photos: photosSlice,
} as const;

export type ListName = keyof typeof LIST_SLICES;

/** Which profile count each list's total feeds (the completed to-dos feed none). */
export const COUNT_FIELD: Partial<Record<ListName, keyof ProfileCountsDTO>> = {
  favourites: SAVE_KINDS.favourites.countField,
  todos: SAVE_KINDS.todos.countField,
  ratings: SAVE_KINDS.ratings.countField,
  articleBookmarks: SAVE_KINDS.articleBookmarks.countField,
  videoBookmarks: SAVE_KINDS.videoBookmarks.countField,
  eventBookmarks: SAVE_KINDS.eventBookmarks.countField,
  photos: 'photo_count',
};
