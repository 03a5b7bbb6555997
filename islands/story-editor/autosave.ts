import { ApiError } from '../common/api';
import { NEWSROOM_TIMINGS, STORY_FIELD_LABELS, STORY_FIELDS, type StoryField } from '../../shared/newsroom';
import type { StoryConflictBody, StoryDTO, StoryFields } from '../../shared/story-dto';
import type { StoryEditorApi } from './api';
import { changedFields, hasChanges } from './fields';
import { localCopyKey, type LocalCopyStore } from './local-copy';
import { editorActions, fieldsNotPatched } from './slice';
import type { StoryEditorStore } from './store';

// Autosave (issue 37, "Nothing lost"): every change goes to this device's copy within
// `localDebounceMs` (a burst of keys is one write, off the keys' frames), at once when the
// page is hidden or left, and before every save request; the
// changed fields go to the server 3 s after the last keystroke and at least every 60 s while
// typing goes on, one save at a time. A save that cannot reach the server waits for the
// browser to be online again; the copy on this device keeps everything meanwhile.

export interface AutosaveOptions {
  store: StoryEditorStore;
  api: StoryEditorApi;
  local: LocalCopyStore;
  memberId: number;
  /** A new story got its id: the page's address becomes the story's. */
  onCreated?: (id: number) => void;
  debounceMs?: number;
  maxMs?: number;
  /** Retry after a server error (5xx) this long after. */
  retryMs?: number;
  isOnline?: () => boolean;
  /** This device's copy is written this long after the last change (coalesced). */
  localDebounceMs?: number;
}

export interface Autosaver {
  /** Saves now (the Save button, Ctrl-S, before publishing); resolves when the queue is done. */
  flush(explicit?: boolean): Promise<void>;
  /** Resolves once this device's copy holds the latest change. */
  written(): Promise<void>;
  dispose(): void;
}

/** The first field error of a 4xx, as the status line says it: "Slug: This slug is taken." */
export function saveErrorText(err: ApiError): string {
  const body = err.body as Record<string, unknown>;
  for (const f of STORY_FIELDS) {
    const m = err.first(f);
    if (m) return `Not saved — ${STORY_FIELD_LABELS[f]}: ${m}`;
  }
  for (const [k, v] of Object.entries(body)) {
    if (k === 'detail' || k === 'non_field_errors') continue;
    if (Array.isArray(v) && typeof v[0] === 'string') return `Not saved — ${k}: ${v[0]}`;
  }
  if (err.status === 401) return 'Not saved — you are signed out. Sign in again in another tab; your changes are kept on this device.';
  if (err.status === 403) return `Not saved — ${err.first('detail') ?? 'you may not edit this story.'}`;
  return `Not saved — ${err.message}`;
}

const isConflict = (err: unknown): err is ApiError & { body: StoryConflictBody } =>
  err instanceof ApiError && err.status === 409 && Array.isArray((err.body as Partial<StoryConflictBody>).conflicts) && Boolean((err.body as Partial<StoryConflictBody>).story);

export function createAutosaver(opts: AutosaveOptions): Autosaver {
  const { store, api, local, memberId } = opts;
  const debounceMs = opts.debounceMs ?? NEWSROOM_TIMINGS.autosaveDebounceMs;
  const maxMs = opts.maxMs ?? NEWSROOM_TIMINGS.autosaveMaxMs;
  const retryMs = opts.retryMs ?? 15_000;
  const online = opts.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine !== false));
  const localDebounceMs = opts.localDebounceMs ?? 300;
  /** The state with the body editor's current JSON in it (read lazily: see store.ts). */
  const state = () => {
    store.body.sync();
    return store.getState().editor;
  };

  let debounce: ReturnType<typeof setTimeout> | null = null;
  let longest: ReturnType<typeof setTimeout> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let localTimer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let againExplicit = false;
  let writing: Promise<void> = Promise.resolve();
  let lastEdits = state().edits;
  /** Changes seen (keys in the body, fields), and how many of them the IndexedDB copy is known to hold. */
  let changes = 0;
  let stored = 0;
  let disposed = false;

  const clearTimers = () => {
    for (const t of [debounce, longest, retry, localTimer]) if (t) clearTimeout(t);
    debounce = longest = retry = localTimer = null;
  };

  /**
   * The copy this device should hold now: the working copy while it differs from the server's,
   * else none. While the body is live, or its shared state waits to be merged, the body is kept
   * as that state, for as long as the server lacks some of it.
   */
  const copyNow = () => {
    const s = state();
    const key = localCopyKey(s.id);
    const shared = s.live.mode === 'live' || store.live.deviceState !== null;
    const keep = shared ? Object.keys(changedFields(s.fields, s.saved, ['doc'])).length > 0 || store.live.pending() : hasChanges(s.fields, s.saved);
    if (!keep) return { key, copy: null };
    const yState = shared ? store.live.encode() : null;
    return { key, copy: { key, memberId, baseVersion: s.baseVersion, fields: s.fields, saved: s.saved, updatedAt: Date.now(), ...(yState ? { yState } : {}) } };
  };

  /** Keeps this device's copy in step. */
  const persist = (previousKey?: string) => {
    if (localTimer) clearTimeout(localTimer);
    localTimer = null;
    const { key, copy } = copyNow();
    const upTo = changes;
    writing = writing
      .then(async () => {
        if (previousKey && previousKey !== key) await local.delete(previousKey);
        if (copy) await local.put(copy);
        else await local.delete(key);
        stored = Math.max(stored, upTo);
      })
      .catch(() => undefined); // storage full or blocked: the server copy is all there is
    return writing;
  };

  /** Writes this device's copy now if a write is waiting (the page going away, a save starting). */
  const persistPending = () => (localTimer ? persist() : writing);

  // A keystroke only moves these deadlines; the timers re-arm themselves when they fire early.
  let localDue = 0;
  let saveDue = 0;
  const localTick = () => {
    localTimer = null;
    const wait = localDue - Date.now();
    if (wait > 0) {
      localTimer = setTimeout(localTick, wait);
      return;
    }
    // Off the frame of the key that asked: when the browser is idle, or soon at the latest.
    const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    if (ric) {
      localTimer = setTimeout(() => void persist(), 500); // the idle callback's backstop
      ric(() => {
        if (localTimer) void persist();
      }, { timeout: 400 });
    } else void persist();
  };
  const schedulePersist = () => {
    localDue = Date.now() + localDebounceMs;
    localTimer ??= setTimeout(localTick, localDebounceMs);
  };

  const saveTick = () => {
    debounce = null;
    const wait = saveDue - Date.now();
    if (wait > 0) debounce = setTimeout(saveTick, wait);
    else void flush(false);
  };
  const schedule = () => {
    saveDue = Date.now() + debounceMs;
    debounce ??= setTimeout(saveTick, debounceMs);
    longest ??= setTimeout(() => void flush(false), maxMs);
  };

  async function saveOnce(explicit: boolean): Promise<void> {
    const s = state();
    const skip: StoryField[] = [...s.conflicts.map((c) => c.field), ...fieldsNotPatched(s)];
    const sent = changedFields(s.fields, s.saved, skip);
    if (!Object.keys(sent).length && !(explicit && s.id !== null)) {
      store.dispatch(editorActions.nothingToSave());
      await persist();
      return;
    }
    // This device's copy holds the change before any request for it goes out.
    void persistPending();
    if (!online()) {
      store.dispatch(editorActions.saveOffline());
      return;
    }
    store.dispatch(editorActions.saveStarted());
    const keyBefore = localCopyKey(s.id);
    try {
      let story: StoryDTO;
      if (s.id === null) {
        story = await api.create({ ...s.fields } as StoryFields);
        store.dispatch(editorActions.saveSucceeded({ story, sent: s.fields }));
        opts.onCreated?.(story.id);
      } else {
        story = await api.save(s.id, { base_version: s.baseVersion, fields: sent, ...(explicit ? { explicit: true } : {}) });
        store.dispatch(editorActions.saveSucceeded({ story, sent }));
      }
    } catch (err) {
      if (isConflict(err)) store.dispatch(editorActions.saveConflicted({ body: err.body, sent }));
      else if (err instanceof ApiError && err.status >= 500) {
        store.dispatch(editorActions.saveFailed('Not saved — the server had a problem. Kept on this device; trying again shortly.'));
        retry ??= setTimeout(() => {
          retry = null;
          void flush(false);
        }, retryMs);
      } else if (err instanceof ApiError) store.dispatch(editorActions.saveFailed(saveErrorText(err)));
      else {
        // fetch itself failed: no network. The browser's 'online' event, or this timer when the
        // browser thinks it is online but the server is out of reach, tries again.
        store.dispatch(editorActions.saveOffline());
        retry ??= setTimeout(() => {
          retry = null;
          void flush(false);
        }, retryMs);
      }
    }
    await persist(keyBefore);
  }

  function flush(explicit = false): Promise<void> {
    if (debounce) clearTimeout(debounce);
    if (longest) clearTimeout(longest);
    debounce = longest = null;
    if (running) {
      again = true;
      againExplicit ||= explicit;
      return running;
    }
    running = (async () => {
      let ex = explicit;
      for (;;) {
        await saveOnce(ex);
        if (!again || disposed) break;
        ex = againExplicit;
        again = againExplicit = false;
      }
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const changed = () => {
    changes += 1;
    schedulePersist();
    schedule();
  };
  let lastLive = store.getState().editor.live;
  const unsubscribe = store.subscribe(() => {
    // Not state(): an action must not read the body's JSON.
    const s = store.getState().editor;
    if (s.live !== lastLive) {
      // The server took the body's changes (the copy can go) or the link fell (it must stay).
      lastLive = s.live;
      schedulePersist();
    }
    if (s.edits === lastEdits) return;
    lastEdits = s.edits;
    changed();
  });
  // A keystroke in the body: no Redux action (store.ts).
  const unsubscribeBody = store.body.onEdit(changed);

  // Leaving or hiding the page writes the copy at once: nothing typed waits on a timer. An
  // IndexedDB write begun now may be cut off by the unload, so a change it does not yet hold
  // is also kept synchronously (putNow).
  const onHide = () => {
    if (stored < changes && local.putNow) {
      const { copy } = copyNow();
      if (copy) local.putNow(copy);
    }
    void persistPending();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') onHide();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onVisibility);

  const onOnline = () => {
    const s = state();
    if (s.status === 'offline' || Object.keys(changedFields(s.fields, s.saved, fieldsNotPatched(s))).length) void flush(false);
  };
  window.addEventListener('online', onOnline);

  return {
    flush,
    written: () => persistPending(),
    dispose() {
      disposed = true;
      if (localTimer) void persist();
      clearTimers();
      unsubscribe();
      unsubscribeBody();
      window.removeEventListener('online', onOnline);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
