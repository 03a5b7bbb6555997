import { createIslandStore } from '../common/store';
import { editorSlice, type EditorState } from './slice';

// One slice: the story. The autosaver (autosave.ts) follows the store from outside it.

export interface StoryEditorRootState {
  editor: EditorState;
}

export function createStoryEditorStore(editor: EditorState) {
  return createIslandStore<StoryEditorRootState>({ reducer: { editor: editorSlice.reducer }, preloadedState: { editor } });
}

export type StoryEditorStore = ReturnType<typeof createStoryEditorStore>;
