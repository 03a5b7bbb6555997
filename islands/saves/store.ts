import { createIslandStore } from '../common/store';
import { bookmarksSlice, type BookmarksState } from './slices/bookmarks';
import { favouritesSlice, type FavouritesState } from './slices/favourites';
import { profileSlice, type ProfileState } from './slices/profile';
import { ratingsSlice, type RatingsState } from './slices/ratings';
import { todosSlice, type TodosState } from './slices/todos';
import { savesSaga, type SavesSagaContext } from './sagas';

// One store for the page: every save control on it (each a portal of the one React root) shares it.

export interface SavesRootState {
  profile: ProfileState;
  favourites: FavouritesState;
  todos: TodosState;
  ratings: RatingsState;
  bookmarks: BookmarksState;
}

export const savesReducer = {
  profile: profileSlice.reducer,
  favourites: favouritesSlice.reducer,
  todos: todosSlice.reducer,
  ratings: ratingsSlice.reducer,
  bookmarks: bookmarksSlice.reducer,
};

export function createSavesStore(preloadedState: Partial<SavesRootState>, context: SavesSagaContext) {
  return createIslandStore<SavesRootState>({
    reducer: savesReducer,
    saga: savesSaga,
    preloadedState,
    context: context as unknown as Record<string, unknown>,
  });
}

export type SavesStore = ReturnType<typeof createSavesStore>;
export type SavesDispatch = SavesStore['dispatch'];
