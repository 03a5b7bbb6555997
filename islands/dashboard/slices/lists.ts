import { createAction } from '@reduxjs/toolkit';
import type { PhotoDTO, ProfileCountsDTO } from '../../../shared/dto';
import { PAGE_SIZE } from '../../../shared/constants';
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

export const favouritesSlice = createListSlice<FavouriteDTO>('favourites', { limit: PAGE_SIZE.favourites });

export const todosSlice = createListSlice<TodoDTO>('todos', {
  limit: PAGE_SIZE.incompleteTodos,
  extraReducers: (b) => b.addCase(todoCompleted, (state, a) => void listDraft.remove(state, a.payload.id)),
});

export const completedTodosSlice = createListSlice<TodoDTO>('completedTodos', {
  limit: PAGE_SIZE.completedTodos,
  extraReducers: (b) => b.addCase(todoCompleted, (state, a) => listDraft.prepend(state, a.payload)),
});

export const ratingsSlice = createListSlice<RatingDTO>('ratings', {
  limit: PAGE_SIZE.ratings,
  extraReducers: (b) => b.addCase(ratingCreated, (state, a) => listDraft.prepend(state, a.payload)),
});

export const articleBookmarksSlice = createListSlice<ArticleBookmarkDTO>('articleBookmarks', { limit: PAGE_SIZE.articleBookmarks, ordering: '-date_created' });
export const videoBookmarksSlice = createListSlice<VideoBookmarkDTO>('videoBookmarks', { limit: PAGE_SIZE.videoBookmarks, ordering: '-date_created' });
export const eventBookmarksSlice = createListSlice<EventBookmarkDTO>('eventBookmarks', { limit: PAGE_SIZE.eventBookmarks, ordering: '-date_created' });
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
  favourites: 'favourite_count',
  todos: 'todos_count',
  ratings: 'ratings_count',
  articleBookmarks: 'bookmark_count',
  videoBookmarks: 'video_bookmarks_count',
  eventBookmarks: 'saved_events_count',
  photos: 'photo_count',
};
