import type { Action } from '@reduxjs/toolkit';
import { createIslandStore } from '../common/store';
import type { StoryFields } from '../../shared/story-dto';
import { editorActions, editorSlice, type EditorState } from './slice';

// One slice: the story. The autosaver (autosave.ts) follows the store from outside it.
//
// The body's JSON is read lazily: a keystroke only calls `body.edited()` (no Redux action, so
// no reducer, middleware or selector runs on a key; the autosaver listens with `onEdit`), and
// the body editor's current JSON is copied into `fields.doc` (`bodySynced`) just before any
// other action is reduced, and whenever `body.sync()` is called (the autosaver does before it
// saves or writes this device's copy). So every reducer, and every reader that syncs first,
// sees the body as typed, without toJSON() and a frozen tree on every key.

export interface StoryEditorRootState {
  editor: EditorState;
}

type Doc = StoryFields['doc'];

export interface BodyLink {
  /** The body editor's JSON reader; answers a function that disconnects it (syncing first). */
  connect(read: () => Doc): () => void;
  /** Copies the body editor's JSON into the store if it changed since the last copy. */
  sync(): void;
  /** The body changed (a keystroke): its JSON is read later. */
  edited(): void;
  /** Calls `listener` on every body change; answers the unsubscribe. */
  onEdit(listener: () => void): () => void;
}

/** Who is in the story now, as the shared document's awareness has them. */
export interface LivePeer {
  clientId: number;
  name: string;
  color: string;
}

/**
 * What the rest of the island reads of the live session (live/session.ts) without loading
 * Yjs: the body's shared state for this device's copy, whether the server lacks some of it,
 * and who else is in the story. `deviceState` is the copy's shared state found at start, kept
 * here until the session merges it.
 */
export class LiveLink {
  deviceState: string | null = null;
  private session: { encode(): string; unsynced(): boolean } | null = null;
  private peers: LivePeer[] = [];
  private listeners = new Set<() => void>();
  attach(session: { encode(): string; unsynced(): boolean }): () => void {
    this.session = session;
    return () => {
      if (this.session === session) this.session = null;
      this.setPeers([]);
    };
  }
  /** The shared body's state (base64) while a session holds it, or the device's not yet merged. */
  encode(): string | null {
    return this.session ? this.session.encode() : this.deviceState;
  }
  /** True when the body has changes only this device holds. */
  pending(): boolean {
    return this.session ? this.session.unsynced() : this.deviceState !== null;
  }
  setPeers(peers: LivePeer[]): void {
    this.peers = peers;
    for (const l of this.listeners) l();
  }
  subscribePeers = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getPeers = () => this.peers;
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
  const listeners = new Set<() => void>();
  const dispatch = ((action: Action) => {
    // The live link's state touches no field: it must not cost a read of the body's JSON.
    if (!editorActions.bodySynced.match(action) && !editorActions.liveChanged.match(action)) sync();
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
    edited() {
      dirty = true;
      for (const l of listeners) l();
    },
    onEdit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return Object.assign(store, { dispatch, body, live: new LiveLink() });
}

export type StoryEditorStore = ReturnType<typeof createStoryEditorStore>;
