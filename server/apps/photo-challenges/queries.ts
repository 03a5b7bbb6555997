import type { Knex } from 'knex';
import type { Db } from '../../db';
import { joinCreditedAuthor } from '../profiles/credited-author-queries';

// Photo challenges and their entries. A challenge is open from start_date until end_date;
// nothing is shown before its start_date or date_published (wherePhotoChallengeIsPublic).

export interface ChallengeRow {
  id: number;
  title: string;
  name: string;
  description: string;
  hashtag: string;
  image_key: string | null;
  start_date: Date;
  end_date: Date;
  entry_count: number;
}

export interface EntryRow {
  id: number;
  title: string;
  image_key: string;
  width: number;
  height: number;
  creation_date: Date;
  instagram_user: string | null;
  full_name: string | null;
}

/**
 * What a reader may see of photo challenges, written once (the hub, a challenge's page and the
 * photo challenges newsletter filter through it). Each content type has one such scope, named
 * `where<Type>IsPublic(qb, now, alias)`.
 *
 * A challenge is public once both its date_published and its start_date have come; whether it
 * is still open (end_date) is a filter on top.
 */
export function wherePhotoChallengeIsPublic<Q extends Knex.QueryBuilder>(qb: Q, now: Date, alias = 'c'): Q {
  qb.where(`${alias}.date_published`, '<=', now).where(`${alias}.start_date`, '<=', now);
  return qb;
}

/** The challenges a reader may see at `now`, with their entry counts. */
function challengesQuery(db: Db, now: Date) {
  const entries = db('photos').count('*').where('photos.challenge_id', db.ref('c.id'));
  return wherePhotoChallengeIsPublic(
    db('photo_challenges as c').select('c.id', 'c.title', 'c.name', 'c.description', 'c.hashtag', 'c.image_key', 'c.start_date', 'c.end_date', entries.as('entry_count')),
    now,
  );
}

const withCount = (r: ChallengeRow): ChallengeRow => ({ ...r, entry_count: Number(r.entry_count) });

/** Open challenges, closing soonest first. */
export async function openChallenges(db: Db, now: Date, limit: number): Promise<ChallengeRow[]> {
  const rows = await challengesQuery(db, now).where('c.end_date', '>', now).orderBy([{ column: 'c.end_date', order: 'asc' }, { column: 'c.id', order: 'asc' }]).limit(limit);
  return rows.map(withCount);
}

/** Closed challenges, the latest to close first, one page of them and how many there are. */
export async function pastChallenges(db: Db, now: Date, page: { limit: number; offset: number }): Promise<{ count: number; rows: ChallengeRow[] }> {
  const [counted, rows] = await Promise.all([
    wherePhotoChallengeIsPublic(db('photo_challenges as c'), now).where('c.end_date', '<=', now).count('* as n').first(),
    challengesQuery(db, now).where('c.end_date', '<=', now).orderBy([{ column: 'c.end_date', order: 'desc' }, { column: 'c.id', order: 'desc' }]).limit(page.limit).offset(page.offset),
  ]);
  return { count: Number((counted as { n: string | number } | undefined)?.n ?? 0), rows: rows.map(withCount) };
}

export async function challengeByName(db: Db, name: string, now: Date): Promise<ChallengeRow | undefined> {
  const row = await challengesQuery(db, now).where('c.name', name).first();
  return row ? withCount(row) : undefined;
}

/** One page of a challenge's entries, newest first, with their author's name or Instagram handle. */
export async function challengeEntries(db: Db, challengeId: number, page: { limit: number; offset: number }): Promise<EntryRow[]> {
  return joinCreditedAuthor(db('photos as p'), 'pr', 'p.profile_id')
    .select('p.id', 'p.title', 'p.image_key', 'p.width', 'p.height', 'p.creation_date', 'p.instagram_user', 'pr.full_name')
    .where('p.challenge_id', challengeId)
    .orderBy([{ column: 'p.creation_date', order: 'desc' }, { column: 'p.id', order: 'desc' }])
    .limit(page.limit)
    .offset(page.offset);
}
