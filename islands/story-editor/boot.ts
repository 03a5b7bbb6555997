import type { StoryEditorInitialState } from '../../shared/story-dto';
import type { StoryEditorApi } from './api';
import { createAutosaver, type Autosaver } from './autosave';
import { blankFields } from './fields';
import { localCopyKey, restoreFrom, type LocalCopyStore } from './local-copy';
import { editorActions, editorStateFor } from './slice';
import { createStoryEditorStore, type StoryEditorStore } from './store';

// Starting the editor: the server's story, then this device's copy of it if that holds
// changes the server lacks (restored and saved at once), then the autosaver.

export interface BootedEditor {
  store: StoryEditorStore;
  autosaver: Autosaver;
}

/** Reads the local copy, but never waits long for it: a broken IndexedDB must not stop editing. */
async function readCopy(local: LocalCopyStore, key: string) {
  try {
    return await Promise.race([local.get(key), new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000))]);
  } catch {
    return undefined;
  }
}

export async function bootStoryEditor(init: StoryEditorInitialState, deps: { api: StoryEditorApi; local: LocalCopyStore; onCreated: (id: number) => void; debounceMs?: number; maxMs?: number }): Promise<BootedEditor> {
  const blank = blankFields(init.types[0]?.id ?? null, init.me.name);
  const store = createStoryEditorStore(editorStateFor(init.story, blank));
  const copy = await readCopy(deps.local, localCopyKey(init.story?.id ?? null));
  const restore = restoreFrom(copy, init.story, blank, init.me.id);
  const autosaver = createAutosaver({ store, api: deps.api, local: deps.local, memberId: init.me.id, onCreated: deps.onCreated, debounceMs: deps.debounceMs, maxMs: deps.maxMs });
  if (restore) {
    // The body's shared state waits for the live session to merge it (StoryBody, live/).
    store.live.deviceState = restore.yState ?? null;
    store.dispatch(editorActions.restoredFromDevice({ fields: restore.fields, saved: restore.saved, baseVersion: restore.baseVersion }));
    void autosaver.flush(false);
  } else if (copy) void deps.local.delete(copy.key).catch(() => undefined);
  return { store, autosaver };
}
