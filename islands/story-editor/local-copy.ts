import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { StoryDTO, StoryFields } from '../../shared/story-dto';
import { changedFields, hasChanges } from './fields';

// "Nothing lost" (issue 37): every change is kept in IndexedDB (and, as the page goes, in
// localStorage), with the version it was made on, until the server has acknowledged exactly
// that state. A story not yet created is kept under 'new'. On load a copy with changes the
// server lacks becomes the working copy.

export interface LocalCopy {
  /** The story's id, or 'new' before its first save. */
  key: string;
  memberId: number;
  baseVersion: number;
  /** The working copy … */
  fields: StoryFields;
  /** … and the server's fields it was made on, so only the writer's own changes are replayed. */
  saved: StoryFields;
  updatedAt: number;
  /**
   * While the body is live (issue 42): the shared document's state (Y.encodeStateAsUpdate,
   * base64), merged into the shared document when the editor opens; `fields.doc` is then only
   * a reading of it and never replayed.
   */
  yState?: string;
}

export interface LocalCopyStore {
  get(key: string): Promise<LocalCopy | undefined>;
  put(copy: LocalCopy): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Keeps `copy` at once, synchronously, for a page going away: an IndexedDB write begun in
   * `pagehide` is often cut off by the unload (a reload lost the last words typed).
   */
  putNow?(copy: LocalCopy): void;
}

export const localCopyKey = (id: number | null) => (id === null ? 'new' : String(id));

interface StoryDraftsSchema extends DBSchema {
  drafts: { key: string; value: LocalCopy };
}

const DB_NAME = 'newsroom-drafts';
let opening: Promise<IDBPDatabase<StoryDraftsSchema>> | null = null;

function openDrafts() {
  opening ??= openDB<StoryDraftsSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('drafts', { keyPath: 'key' });
    },
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      opening = null;
    },
    terminated() {
      opening = null;
    },
  });
  return opening;
}

// The page-leaving copy (putNow) is kept in localStorage, one key a story; `get` answers the
// newer of the two and a write to IndexedDB that catches up removes it.
const NOW_PREFIX = 'newsroom-draft:';

function nowCopy(key: string): LocalCopy | undefined {
  try {
    const raw = localStorage.getItem(NOW_PREFIX + key);
    return raw ? (JSON.parse(raw) as LocalCopy) : undefined;
  } catch {
    return undefined;
  }
}

function dropNowCopy(key: string, upTo = Infinity): void {
  try {
    const now = nowCopy(key);
    if (now && now.updatedAt <= upTo) localStorage.removeItem(NOW_PREFIX + key);
  } catch {
    // storage blocked: nothing was kept there either
  }
}

export const idbLocalCopies: LocalCopyStore = {
  async get(key) {
    const now = nowCopy(key);
    const kept = await (await openDrafts()).get('drafts', key).catch(() => undefined);
    return now && (!kept || now.updatedAt >= kept.updatedAt) ? now : kept;
  },
  async put(copy) {
    await (await openDrafts()).put('drafts', copy);
    dropNowCopy(copy.key, copy.updatedAt);
  },
  async delete(key) {
    dropNowCopy(key);
    await (await openDrafts()).delete('drafts', key);
  },
  putNow(copy) {
    try {
      localStorage.setItem(NOW_PREFIX + copy.key, JSON.stringify(copy));
    } catch {
      // full or blocked: the IndexedDB write begun alongside is all there is
    }
  },
};

/** For browsers without IndexedDB (and tests): kept for the page's life only. */
export function memoryLocalCopies(): LocalCopyStore & { copies: Map<string, LocalCopy> } {
  const copies = new Map<string, LocalCopy>();
  return {
    copies,
    get: async (key) => copies.get(key),
    put: async (copy) => void copies.set(copy.key, structuredClone(copy)),
    delete: async (key) => void copies.delete(key),
    putNow: (copy) => void copies.set(copy.key, structuredClone(copy)),
  };
}

export interface Restore {
  fields: StoryFields;
  saved: StoryFields;
  baseVersion: number;
  /** The body's shared state to merge (never to replace the body with). */
  yState?: string;
}

/**
 * What to restore from a copy kept on this device; null when it holds nothing the server lacks.
 * Made on the server's version: it is the working copy. Made on an older one: the writer's own
 * changes are laid over the server's fields and saved on the old base version, so a field
 * someone else changed meanwhile comes back as a conflict to resolve, never overwritten.
 */
export function restoreFrom(copy: LocalCopy | undefined, story: StoryDTO | null, blank: StoryFields, memberId: number): Restore | null {
  if (!copy || copy.memberId !== memberId) return null;
  if (!story) return hasChanges(copy.fields, blank) ? { fields: copy.fields, saved: blank, baseVersion: 0 } : null;
  if (copy.yState) {
    // The body is merged through the shared document; the other fields are replayed as below.
    const others = changedFields(copy.fields, copy.saved, ['doc']);
    const newer = copy.baseVersion >= story.version;
    return { fields: { ...story.fields, ...others }, saved: newer ? { ...copy.saved, doc: story.fields.doc } : story.fields, baseVersion: copy.baseVersion, yState: copy.yState };
  }
  const mine = changedFields(copy.fields, copy.saved);
  if (!Object.keys(mine).length) return null;
  if (copy.baseVersion >= story.version) return { fields: copy.fields, saved: copy.saved, baseVersion: copy.baseVersion };
  const fields = { ...story.fields, ...mine };
  if (!hasChanges(fields, story.fields)) return null;
  return { fields, saved: story.fields, baseVersion: copy.baseVersion };
}
