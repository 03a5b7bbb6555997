import type { Db } from '../../db';
import type { Logger } from '../../logger';
import { HttpError } from '../../http/errors';
import type { SaveKind } from '../saves/kind';
import { createSave } from '../saves/store';
import { favouritesKind } from '../favourites/kind';
import { todosKind } from '../todos/kind';
import { ratingsKind } from '../ratings/kind';
import { articleBookmarksKind } from '../bookmarks/articles';
import { videoBookmarksKind } from '../bookmarks/videos';
import { eventBookmarksKind } from '../bookmarks/events';
import type { PostAuthenticateAction } from './schemas';

// A guest who tried to save something (spec 2 §4: "a protected action by a guest opens the
// login dialog and remembers the calling action name, object id and rating") gets it saved as
// they sign in. The save goes through the same store as the saving APIs, so the rules are the
// same: one per member and object, counters and ratings kept in step, last_updates moved.

const KINDS: Record<PostAuthenticateAction, SaveKind<unknown>> = {
  'add-favourite': favouritesKind as SaveKind<unknown>,
  'add-todo': todosKind as SaveKind<unknown>,
  'add-rating': ratingsKind as SaveKind<unknown>,
  'add-article-bookmark': articleBookmarksKind as SaveKind<unknown>,
  'add-video-bookmark': videoBookmarksKind as SaveKind<unknown>,
  'add-event-bookmark': eventBookmarksKind as SaveKind<unknown>,
};

export interface PostAuthenticateRequest {
  action: PostAuthenticateAction;
  objectId: number;
  rating?: number;
}

export type PostAuthenticateOutcome = 'saved' | 'already-saved' | 'not-found' | 'invalid';

/**
 * Carries out the remembered action for the member who just signed in. Never throws: the
 * sign-in has succeeded whatever happens to the save, and the outcome is only logged.
 */
export async function runPostAuthenticateAction(db: Db, logger: Logger, profileId: number, req: PostAuthenticateRequest, now = new Date()): Promise<PostAuthenticateOutcome> {
  const kind = KINDS[req.action];
  try {
    if (req.action === 'add-rating' && !req.rating) return 'invalid';
    const payload = req.action === 'add-rating' ? { listing: req.objectId, rating: req.rating } : { [kind.objectField]: req.objectId };
    const saved = await createSave(db, kind, profileId, kind.parseCreate(payload, now), now);
    return saved.created || req.action === 'add-rating' ? 'saved' : 'already-saved';
  } catch (err) {
    // A 400 from the store: the object does not exist or cannot be saved (an unapproved event).
    if (err instanceof HttpError && err.status === 400) return 'not-found';
    logger.warn({ err, action: req.action, objectId: req.objectId }, 'post-authenticate action failed');
    return 'invalid';
  }
}
