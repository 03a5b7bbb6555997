import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import type { AnySaveKind } from '../saves/save-kind';
import { createSave } from '../saves/save-queries';
import { createPayload, SAVE_KINDS, saveKindOfLoginAction } from '../../../shared/save-kinds';
import type { PostAuthenticateAction } from './schemas';

// A guest who tried to save something (spec 2 §4: "a protected action by a guest opens the
// login dialog and remembers the calling action name, object id and rating") gets it saved as
// they sign in. The save goes through the same store as the saving APIs, so the rules are the
// same: one per member and object, counters and ratings kept in step, last_updates moved.

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
export async function runPostAuthenticateAction(ctx: Pick<AppContext, 'db' | 'logger' | 'saveKinds'>, profileId: number, req: PostAuthenticateRequest, now = new Date()): Promise<PostAuthenticateOutcome> {
  const name = saveKindOfLoginAction(req.action);
  const { db, logger } = ctx;
  // The server side of the kind (the context's, as the saving APIs use); its action name and payload are shared/save-kinds.ts's.
  const kind: AnySaveKind = ctx.saveKinds[name];
  // A rating posted again changes the member's rating: saved either way.
  const rated = SAVE_KINDS[name].rated;
  try {
    if (rated && !req.rating) return 'invalid';
    const saved = await createSave(db, kind, profileId, kind.parseCreate(createPayload(name, req.objectId, req.rating), now), now);
    return saved.created || rated ? 'saved' : 'already-saved';
  } catch (err) {
    // A 400 from the store: the object does not exist or cannot be saved (an unapproved event).
    if (err instanceof HttpError && err.status === 400) return 'not-found';
    logger.warn({ err, action: req.action, objectId: req.objectId }, 'post-authenticate action failed');
    return 'invalid';
  }
}
