import type { Db } from '../../db';
import type { Logger } from '../../logger';
import { touchLastUpdate } from './member-queries';
import type { PostAuthenticateAction } from './schemas';

// A guest who tried to save something (spec 2 §4: "a protected action by a guest opens the
// login dialog and remembers the calling action name, object id and rating") gets it saved as
// they sign in. Saves are one per member and object, so a repeat is a no-op; a rating updates.
// Counters on listings are kept the way the saving apps keep them (favourite_count,
// rating/rating_count recomputed from the ratings).

interface SaveTarget {
  table: string;
  column: string;
  /** The last_updates key the islands' caches watch, if any. */
  kind: string;
}

const TARGETS: Record<Exclude<PostAuthenticateAction, 'add-rating'>, SaveTarget> = {
  'add-favourite': { table: 'favourites', column: 'listing_id', kind: 'favourites' },
  'add-todo': { table: 'todos', column: 'listing_id', kind: 'todos' },
  'add-article-bookmark': { table: 'article_bookmarks', column: 'article_id', kind: 'article-bookmarks' },
  'add-video-bookmark': { table: 'video_bookmarks', column: 'video_id', kind: 'video-bookmarks' },
  'add-event-bookmark': { table: 'event_bookmarks', column: 'event_id', kind: 'event-bookmarks' },
};

export interface PostAuthenticateRequest {
  action: PostAuthenticateAction;
  objectId: number;
  rating?: number;
}

export type PostAuthenticateOutcome = 'saved' | 'already-saved' | 'not-found' | 'invalid';

/** Postgres' foreign_key_violation: the object does not exist (or was deleted meanwhile). */
function isMissingObject(err: unknown): boolean {
  return (err as { code?: string })?.code === '23503';
}

async function saveRating(db: Db, profileId: number, listingId: number, rating: number, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('ratings')
      .insert({ profile_id: profileId, listing_id: listingId, rating, date_created: now, date_updated: now })
      .onConflict(['profile_id', 'listing_id'])
      .merge({ rating, date_updated: now });
    await trx('listings')
      .where({ id: listingId })
      .update({
        rating: trx.raw('(SELECT round(avg(rating)::numeric, 2) FROM ratings WHERE listing_id = ?)', [listingId]),
        rating_count: trx.raw('(SELECT count(*) FROM ratings WHERE listing_id = ?)', [listingId]),
      });
  });
}

async function saveObject(db: Db, profileId: number, target: SaveTarget, objectId: number, now: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const inserted = await trx(target.table)
      .insert({ profile_id: profileId, [target.column]: objectId, date_created: now })
      .onConflict(['profile_id', target.column])
      .ignore()
      .returning('id');
    if (inserted.length && target.table === 'favourites') await trx('listings').where({ id: objectId }).increment('favourite_count', 1);
    return inserted.length > 0;
  });
}

/**
 * Carries out the remembered action for the member who just signed in. Never throws: the
 * sign-in has succeeded whatever happens to the save, and the outcome is only logged.
 */
export async function runPostAuthenticateAction(db: Db, logger: Logger, profileId: number, req: PostAuthenticateRequest, now = new Date()): Promise<PostAuthenticateOutcome> {
  try {
    if (req.action === 'add-rating') {
      if (!req.rating) return 'invalid';
      await saveRating(db, profileId, req.objectId, req.rating, now);
      return 'saved';
    }
    const target = TARGETS[req.action];
    const saved = await saveObject(db, profileId, target, req.objectId, now);
    if (saved) await touchLastUpdate(db, profileId, target.kind, now);
    return saved ? 'saved' : 'already-saved';
  } catch (err) {
    if (isMissingObject(err)) return 'not-found';
    logger.warn({ err, action: req.action, objectId: req.objectId }, 'post-authenticate action failed');
    return 'invalid';
  }
}
