import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { OFFLINE_DB } from './keys';
import type { ListEntry, QueuedAction } from './lists';

// The dashboard's offline store in IndexedDB: each saved list as last synced, and the actions
// taken offline waiting to be sent. Every record names its member; the worker and the pages
// delete the records of anyone but the member signed in (forgetMembers).

interface OfflineSchema extends DBSchema {
  lists: { key: string; value: ListEntry };
  queue: { key: number; value: QueuedAction };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

export function openOfflineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB, 1, {
    upgrade(db) {
      db.createObjectStore('lists', { keyPath: 'key' });
      db.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true });
    },
    // Another tab or the worker deleting the database: let go of it so the delete goes through.
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

/** The storage the offline lists and queue use; an in-memory one stands in for it in tests. */
export interface OfflineStore {
  getList(key: string): Promise<ListEntry | undefined>;
  putList(entry: ListEntry): Promise<void>;
  lists(member: number): Promise<ListEntry[]>;
  enqueue(action: Omit<QueuedAction, 'seq'>): Promise<void>;
  queued(member: number): Promise<QueuedAction[]>;
  dequeue(seq: number): Promise<void>;
}

export const idbStore: OfflineStore = {
  async getList(key) {
    return (await openOfflineDb()).get('lists', key);
  },
  async putList(entry) {
    await (await openOfflineDb()).put('lists', entry);
  },
  async lists(member) {
    return (await (await openOfflineDb()).getAll('lists')).filter((e) => e.member === member);
  },
  async enqueue(action) {
    await (await openOfflineDb()).add('queue', action as QueuedAction);
  },
  async queued(member) {
    return (await (await openOfflineDb()).getAll('queue')).filter((a) => a.member === member).sort((a, b) => a.seq - b.seq);
  },
  async dequeue(seq) {
    await (await openOfflineDb()).delete('queue', seq);
  },
};

/** Deletes every record of members other than `keep` (null: of everybody). */
export async function forgetMembers(keep: number | null): Promise<void> {
  const db = await openOfflineDb();
  const tx = db.transaction(['lists', 'queue'], 'readwrite');
  for (const name of ['lists', 'queue'] as const) {
    let cursor = await tx.objectStore(name).openCursor();
    while (cursor) {
      if (keep === null || cursor.value.member !== keep) await cursor.delete();
      cursor = await cursor.continue();
    }
  }
  await tx.done;
}
