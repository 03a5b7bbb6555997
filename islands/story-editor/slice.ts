import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORY_FIELDS, type StoryField } from '../../shared/newsroom';
import type { StoryConflict, StoryConflictBody, StoryDTO, StoryFields } from '../../shared/story-dto';
import { sameJson } from './fields';

// The story being edited: the working copy (`fields`), what the server last acknowledged
// (`saved`, at `baseVersion`), the save's status and any conflicts. The body editor, the
// field inputs, the autosaver and the panels all read and change this one state.

export type StoryMeta = Omit<StoryDTO, 'fields'>;

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'error';

/**
 * The body's live link (issue 42, live/): 'off' before it is tried (or for a story not yet
 * created), 'connecting' until the shared document first arrives, 'live' while the body is
 * bound to it, 'refused' (4403: this member may not join) and 'unavailable' (no websocket, no
 * answer, or the server dropped the link) when the body is saved with PATCH as before.
 */
export type LiveMode = 'off' | 'connecting' | 'live' | 'refused' | 'unavailable';

export interface LiveState {
  mode: LiveMode;
  /** The socket is up and synced (while live). */
  online: boolean;
  /** Body changes the server has not acknowledged yet (while live). */
  unsynced: boolean;
}

export interface EditorState {
  id: number | null;
  meta: StoryMeta | null;
  fields: StoryFields;
  saved: StoryFields;
  baseVersion: number;
  /** Counts changes to the fields (the body's keystrokes are counted outside Redux: store.ts). */
  edits: number;
  /** Bumped when the body is replaced from outside the body editor (restore, conflict, server). */
  docRevision: number;
  status: SaveStatus;
  /** The 4xx or server error, naming the field. */
  error: string | null;
  conflicts: StoryConflict[];
  /** The working copy came from this device's copy on load. */
  restoredFromDevice: boolean;
  /** A published story's address as readers know it: its slug changing makes a redirect. */
  publishedSlug: string | null;
  live: LiveState;
}

/** Fields the autosave leaves out: while live, the server keeps the body from the shared document. */
export const fieldsNotPatched = (s: EditorState): StoryField[] => (s.live.mode === 'live' ? ['doc'] : []);

const metaOf = ({ fields: _fields, ...meta }: StoryDTO): StoryMeta => meta;

/** The slug of the live address (the last part of `path`), for a story that is public. */
export function publishedSlugOf(story: StoryDTO | StoryMeta | null): string | null {
  if (!story || !(story.status === 'published' || story.public_url) || !story.path) return null;
  const parts = story.path.split('/').filter(Boolean);
  return parts.length ? parts[parts.length - 1] : null;
}

export function editorStateFor(story: StoryDTO | null, blank: StoryFields): EditorState {
  const fields = story ? story.fields : blank;
  return {
    id: story?.id ?? null,
    meta: story ? metaOf(story) : null,
    fields,
    saved: fields,
    baseVersion: story?.version ?? 0,
    edits: 0,
    docRevision: 0,
    status: 'idle',
    error: null,
    conflicts: [],
    restoredFromDevice: false,
    publishedSlug: publishedSlugOf(story),
    live: { mode: 'off', online: false, unsynced: false },
  };
}

/**
 * Takes the server's story as the new base. A field the writer has not touched since `sent`
 * (what the save sent, or the old base for fields it did not send) takes the server's value,
 * so another editor's change to it shows; a field typed into meanwhile keeps the typing.
 */
function acceptServerStory(s: EditorState, story: StoryDTO, sent: Partial<StoryFields>, conflicting: StoryField[] = []) {
  for (const f of STORY_FIELDS) {
    // While live the body comes only through the shared document; the story's copy lags it.
    if (f === 'doc' && s.live.mode === 'live') continue;
    const server = story.fields[f];
    const asSent = f in sent ? sent[f] : s.saved[f];
    if (!conflicting.includes(f) && sameJson(s.fields[f], asSent) && !sameJson(s.fields[f], server)) {
      (s.fields as unknown as Record<string, unknown>)[f] = server;
      if (f === 'doc') s.docRevision += 1;
    }
  }
  s.saved = story.fields;
  s.baseVersion = story.version;
  s.id = story.id;
  s.meta = metaOf(story);
  if (story.status === 'published') s.publishedSlug = publishedSlugOf(story);
}

export const editorSlice = createSlice({
  name: 'editor',
  initialState: editorStateFor(null, {} as StoryFields),
  reducers: {
    fieldChanged<F extends StoryField>(s: EditorState, { payload }: PayloadAction<{ field: F; value: StoryFields[F]; fromBody?: boolean }>) {
      (s.fields as unknown as Record<string, unknown>)[payload.field] = payload.value;
      if (payload.field === 'doc' && !payload.fromBody) s.docRevision += 1;
      s.edits += 1;
    },
    /** The body editor's current JSON, read lazily: no new edit, no new docRevision. */
    bodySynced(s, { payload }: PayloadAction<StoryFields['doc']>) {
      s.fields.doc = payload;
    },
    saveStarted(s) {
      s.status = 'saving';
      s.error = null;
    },
    saveSucceeded(s, { payload }: PayloadAction<{ story: StoryDTO; sent: Partial<StoryFields> }>) {
      acceptServerStory(s, payload.story, payload.sent, s.conflicts.map((c) => c.field));
      s.status = 'saved';
      s.error = null;
    },
    /** 409: the fields nobody else changed were saved; the others wait for the writer's choice. */
    saveConflicted(s, { payload }: PayloadAction<{ body: StoryConflictBody; sent: Partial<StoryFields> }>) {
      // A field whose two versions are the same (our own save whose answer was lost) is no conflict.
      const real = payload.body.conflicts.filter((c) => !sameJson(c.mine, c.theirs) && !fieldsNotPatched(s).includes(c.field));
      const fields = real.map((c) => c.field);
      acceptServerStory(s, payload.body.story, payload.sent, fields);
      s.conflicts = [...s.conflicts.filter((c) => !fields.includes(c.field)), ...real];
      s.status = real.length ? 'error' : 'saved';
      s.error = real.length ? 'Someone else changed this story: choose which version to keep below.' : null;
    },
    /** A save found nothing the server lacks. */
    nothingToSave(s) {
      if (s.status === 'saving' || s.status === 'offline' || (s.status === 'error' && !s.conflicts.length)) s.status = s.id === null ? 'idle' : 'saved';
      if (!s.conflicts.length) s.error = null;
    },
    saveOffline(s) {
      s.status = 'offline';
    },
    saveFailed(s, { payload }: PayloadAction<string>) {
      s.status = 'error';
      s.error = payload;
    },
    conflictResolved(s, { payload }: PayloadAction<{ field: StoryField; value: unknown }>) {
      (s.fields as unknown as Record<string, unknown>)[payload.field] = payload.value;
      if (payload.field === 'doc') s.docRevision += 1;
      s.conflicts = s.conflicts.filter((c) => c.field !== payload.field);
      if (!s.conflicts.length && s.status === 'error') s.error = null;
      s.edits += 1;
    },
    /** An action on the story (submit, publish, schedule …) answered the story; no fields were sent. */
    storyUpdated(s, { payload }: PayloadAction<StoryDTO>) {
      acceptServerStory(s, payload, {}, s.conflicts.map((c) => c.field));
    },
    /** A revision restored as the working copy: the server's fields replace the editor's. */
    storyReplaced(s, { payload }: PayloadAction<StoryDTO>) {
      // While live the restored body arrives through the shared document, for everyone at once;
      // putting it in here too would double it.
      const live = s.live.mode === 'live';
      s.fields = live ? { ...payload.fields, doc: s.fields.doc } : payload.fields;
      s.saved = payload.fields;
      s.baseVersion = payload.version;
      s.meta = metaOf(payload);
      if (!live) s.docRevision += 1;
      s.conflicts = [];
      s.edits += 1;
    },
    /** This device's copy, newer than the server's, becomes the working copy on load. */
    restoredFromDevice(s, { payload }: PayloadAction<{ fields: StoryFields; saved: StoryFields; baseVersion: number }>) {
      s.fields = payload.fields;
      s.saved = payload.saved;
      s.baseVersion = payload.baseVersion;
      s.docRevision += 1;
      s.restoredFromDevice = true;
      s.edits += 1;
    },
    /** The live link's state changed (live/session.ts): no field changes, so no body read. */
    liveChanged(s, { payload }: PayloadAction<Partial<LiveState>>) {
      const wasUnsynced = s.live.mode === 'live' && s.live.unsynced;
      s.live = { ...s.live, ...payload };
      // The body's changes are all on the server: "Saved", unless a field save is under way or failed.
      if (wasUnsynced && !s.live.unsynced && s.live.online && (s.status === 'idle' || s.status === 'offline')) s.status = 'saved';
    },
    restoredNoticeClosed(s) {
      s.restoredFromDevice = false;
    },
  },
});

export const editorActions = editorSlice.actions;
