import type { Knex } from 'knex';
import type { Db } from '../../db';

// A story's shared document: its compacted state (story_documents) and the Yjs updates appended
// since (story_document_updates, in arrival order). Any process loads the state and every update;
// compaction folds updates into the state under the row's lock, so appends never wait on it
// for long and a process loading meanwhile reads either side of it, both whole.

export const LIVE_CHANNEL = 'guide_story_document';

export interface StoredDocument {
  state: Uint8Array;
  updates: Uint8Array[];
  /** The newest update's id read (0 when none): later ones are caught up from here. */
  lastId: number;
}

const bytes = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(v as ArrayBuffer));

/** The stored document, or null when the story has none yet. */
export async function storedDocument(db: Db | Knex.Transaction, articleId: number): Promise<StoredDocument | null> {
  const row = await db('story_documents').where({ article_id: articleId }).first('state');
  if (!row) return null;
  const updates = await updatesAfter(db, articleId, 0);
  return { state: bytes(row.state), updates: updates.map((u) => u.update), lastId: updates.length ? updates[updates.length - 1].id : 0 };
}

/** The updates appended after `afterId`, in order. */
export async function updatesAfter(db: Db | Knex.Transaction, articleId: number, afterId: number): Promise<Array<{ id: number; update: Uint8Array }>> {
  const rows = await db('story_document_updates').where({ article_id: articleId }).andWhere('id', '>', afterId).orderBy('id').select('id', 'update');
  return rows.map((r: { id: string | number; update: unknown }) => ({ id: Number(r.id), update: bytes(r.update) }));
}

/**
 * The first state of a story's document; when another process made one first, theirs stays
 * (two first states would both be merged, and the body would appear twice).
 */
export async function createDocument(db: Db, articleId: number, state: Uint8Array): Promise<void> {
  await db('story_documents').insert({ article_id: articleId, state: Buffer.from(state) }).onConflict('article_id').ignore();
}

/** pg_notify takes 8000 bytes at most: a larger update is read from the table by its id. */
export const NOTICE_INLINE_MAX = 6_000;

/**
 * Appends an update; with `announce` (PostgreSQL), the same statement tells the other processes
 * (`{o, s, i, u}`: from whom, the story, the new id, the update in base64 when it fits), so an
 * update is never stored unannounced, nor announced unstored.
 */
export async function appendUpdate(db: Db, articleId: number, update: Uint8Array, announce: { origin: string } | null): Promise<number> {
  const bytes = Buffer.from(update);
  if (!announce) {
    const [row] = await db('story_document_updates').insert({ article_id: articleId, update: bytes }).returning('id');
    return Number(row.id ?? row);
  }
  const inline = bytes.toString('base64');
  const { rows } = await db.raw(
    `with u as (insert into story_document_updates (article_id, update) values (?, ?) returning id)
     select id, pg_notify(?, json_build_object('o', ?::text, 's', ?::int, 'i', id, 'u', ?::text)::text) from u`,
    [articleId, bytes, LIVE_CHANNEL, announce.origin, articleId, inline.length <= NOTICE_INLINE_MAX ? inline : null],
  );
  return Number(rows[0].id);
}

/** A notice to the other processes that is stored nowhere (an awareness update). */
export async function notifyLive(db: Db, payload: string): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [LIVE_CHANNEL, payload]);
}

export async function updateById(db: Db, id: number): Promise<{ articleId: number; update: Uint8Array } | null> {
  const row = await db('story_document_updates').where({ id }).first('article_id', 'update');
  return row ? { articleId: Number(row.article_id), update: bytes(row.update) } : null;
}

export async function updateCount(db: Db, articleId: number): Promise<number> {
  const row = await db('story_document_updates').where({ article_id: articleId }).count<{ n: string | number }[]>({ n: '*' });
  return Number(row[0]?.n ?? 0);
}

/**
 * Folds the story's updates into its state: `merge` makes one state of the stored state and the
 * updates (Yjs merges them whatever their order), and the folded updates go, in one transaction
 * with the document's row locked.
 */
export async function compactDocument(db: Db, articleId: number, merge: (state: Uint8Array, updates: Uint8Array[]) => Uint8Array, now: Date): Promise<number> {
  return db.transaction(async (trx) => {
    const row = await trx('story_documents').where({ article_id: articleId }).forUpdate().first('state');
    if (!row) return 0;
    const updates = await updatesAfter(trx, articleId, 0);
    if (!updates.length) return 0;
    const state = merge(bytes(row.state), updates.map((u) => u.update));
    await trx('story_document_updates').where({ article_id: articleId }).andWhere('id', '<=', updates[updates.length - 1].id).del();
    await trx('story_documents').where({ article_id: articleId }).update({ state: Buffer.from(state), updated_at: now });
    return updates.length;
  });
}
