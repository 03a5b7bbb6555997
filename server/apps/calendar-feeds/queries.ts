import type { Knex } from 'knex';
import type { Db } from '../../db';

// A member's calendar feeds as the member manages them: list, add, remove (feed-sync-queries.ts
// has what the sync reads and writes).

export type FeedRow = Record<string, unknown> & { id: number };

/** The member's feed with this id, or undefined when it is not theirs (or does not exist). */
export async function ownFeed(db: Db, memberId: number, id: number): Promise<FeedRow | undefined> {
  return db('calendar_feeds').where({ id, profile_id: memberId }).first();
}

export async function listFeeds(db: Db, memberId: number): Promise<FeedRow[]> {
  return db('calendar_feeds').where({ profile_id: memberId }).orderBy('id');
}

/** Locks the member's row until the transaction ends. */
export async function lockMember(trx: Knex.Transaction, memberId: number): Promise<void> {
  await trx('profiles').where({ id: memberId }).forUpdate().first('id');
}

/** The URLs of the member's feeds. */
export async function feedUrls(trx: Knex.Transaction, memberId: number): Promise<Array<{ url: string }>> {
  return trx('calendar_feeds').where({ profile_id: memberId }).select('url');
}

/** A new feed, due at once. */
export async function insertFeed(trx: Knex.Transaction, memberId: number, url: string, now: Date): Promise<FeedRow> {
  const [row] = await trx('calendar_feeds').insert({ profile_id: memberId, url, next_fetch_at: now, date_created: now, date_updated: now }).returning('*');
  return row;
}

export async function deleteFeed(db: Db, memberId: number, id: number): Promise<void> {
  await db('calendar_feeds').where({ id, profile_id: memberId }).delete();
}
