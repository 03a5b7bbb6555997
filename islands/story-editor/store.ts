import type { Action } from '@reduxjs/toolkit';
import { createIslandStore } from '../common/store';
import type { StoryFields } from '../../shared/story-dto';
import { editorActions, editorSlice, type EditorState } from './slice';

// One slice: the story. The autosaver (autosave.ts) follows the store from outside it.
//
// The body's JSON is read lazily: a keystroke only dispatches `bodyEdited` (a counter), and
// the body editor's current JSON is copied into `fields.doc` (`bodySynced`) just before any
// other action is reduced, and whenever `body.sync()` is called (the autosaver does before it
// saves or writes this device's copy). So every reducer, and every reader that syncs first,
// sees the body as typed, without getJSON() and a frozen tree on every key.

export interface StoryEditorRootState {
  editor: EditorState;
}

type Doc = StoryFields['doc'];

export interface BodyLink {
  /** The body editor's JSON reader; answers a function that disconnects it (syncing first). */
  connect(read: () => Doc): () => void;
  /** Copies the body editor's JSON into the store if it changed since the last copy. */
  sync(): void;
}

export function createStoryEditorStore(editor: EditorState) {
  const store = createIslandStore<StoryEditorRootState>({ reducer: { editor: editorSlice.reducer }, preloadedState: { editor } });
  const rawDispatch = store.dispatch;
  let read: (() => Doc) | null = null;
  let dirty = false;
  const sync = () => {
    if (!dirty || !read) return;
    dirty = false;
    rawDispatch(editorActions.bodySynced(read()));
  };
  const dispatch = ((action: Action) => {
    if (editorActions.bodyEdited.match(action)) dirty = true;
    else if (!editorActions.bodySynced.match(action)) sync();
    return rawDispatch(action);
  }) as typeof rawDispatch;
  const body: BodyLink = {
    connect(r) {
      read = r;
      return () => {
        sync();
        if (read === r) read = null;
      };
    },
    sync,
  };
  return Object.assign(store, { dispatch, body });
}

export type StoryEditorStore = ReturnType<typeof createStoryEditorStore>;
