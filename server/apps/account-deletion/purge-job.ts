import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { AnySaveKind } from '../saves/save-kind';
import { purgeRenditions, renditionStore } from '../media/renditions';
import { deleteMemberReports } from '../accessibility/queries';
import type { ContentChoice } from './schemas';
import {
  claimDueDeletion, deleteGuestSubscription, deleteLapsedConfirmations, deleteMemberPhotos, deleteMemberRows, deleteMemberSaves,
  deleteProfile, deleteSubmittedEvents, dueDeletions, isInactiveProfile, profileEmailAndAvatar, unlinkMemberPhotos, unlinkSubmittedEvents,
} from './purge-queries';

// The purge: seven days after a member asked, their personal data is deleted, one member per
// transaction, so a failure leaves that member whole and the next run tries again.
//
// What goes: every save (each kind's own onChange runs for each row, so listing favourite
// counts and rating averages, rating_rank and smart_review_score are recomputed by the writers
// the ratings and favourites apps use), the tables below, a guest newsletter subscription of the
// same address, and finally the profile row itself (name, email, password hash, social ids,
// newsletter choices, calendar sync, avatar). Photos and submitted events are deleted or kept
// without the member (profile_id / submitted_by set null) as they chose. Files (photos, event
// pictures, the avatar) are deleted after the commit: a file left behind by a crash is an
// orphan, never a row pointing at nothing. Contact messages the member sent stay with staff,
// unlinked from the account by their foreign key (ON DELETE SET NULL).

/** Other tables of the member's own rows, deleted outright. A new table of personal data is one line here. */
export const MEMBER_TABLES: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'calendar_credentials', column: 'profile_id' },
  { table: 'password_reset_tokens', column: 'profile_id' },
  { table: 'calendar_feeds', column: 'profile_id' },
  { table: 'login_history', column: 'profile_id' },
  // Edits suggested to places (place-suggestions); a pending one leaves the staff page with them.
  { table: 'place_suggestions', column: 'member_id' },
];

export interface PurgeResult {
  profileId: number;
  content: ContentChoice;
  photosRemoved: number;
  photosKept: number;
  eventsRemoved: number;
  eventsKept: number;
}

/** Deletes one member's data inside trx; answers the storage keys to delete after the commit. */
async function purgeMember(trx: Knex.Transaction, saveKinds: AppContext['saveKinds'], profileId: number, content: ContentChoice): Promise<{ result: PurgeResult; files: string[] }> {
  const files: string[] = [];
  const profile = await profileEmailAndAvatar(trx, profileId);
  if (profile?.avatar) files.push(profile.avatar);

  // Every kind of save the member has (the context's, as the saving APIs use); counters move through the kind's own onChange.
  const kinds: AnySaveKind[] = Object.values(saveKinds);
  for (const kind of kinds) {
    const deleted = await deleteMemberSaves(trx, kind.table, kind.objectColumn, profileId);
    if (!kind.onChange) continue;
    // One listing at a time, in id order, as the writers lock them (no deadlock with a live rating).
    const objects = [...new Set(deleted.map((row) => Number(row[kind.objectColumn])))].sort((a, b) => a - b);
    for (const objectId of objects) await kind.onChange(trx, objectId, 'deleted');
  }

  // Accessibility reports, each place's counts recounted without them (accessibility app).
  await deleteMemberReports(trx, profileId);

  for (const { table, column } of MEMBER_TABLES) await deleteMemberRows(trx, table, column, profileId);
  if (profile) await deleteGuestSubscription(trx, String(profile.email));

  let photosRemoved = 0;
  let photosKept = 0;
  let eventsRemoved = 0;
  let eventsKept = 0;
  if (content === 'remove') {
    const photos = await deleteMemberPhotos(trx, profileId);
    const events = await deleteSubmittedEvents(trx, profileId);
    files.push(...photos.map((p) => p.image_key), ...events.flatMap((e) => (e.image_key ? [e.image_key] : [])));
    photosRemoved = photos.length;
    eventsRemoved = events.length;
  } else {
    photosKept = await unlinkMemberPhotos(trx, profileId);
    eventsKept = await unlinkSubmittedEvents(trx, profileId);
  }

  // The profile last: its deletion cascades to anything a table above missed, and to the
  // account_deletions row.
  await deleteProfile(trx, profileId);
  return { result: { profileId, content, photosRemoved, photosKept, eventsRemoved, eventsKept }, files };
}

/**
 * Purges every account whose seven days are over at ctx.now(). Safe to run from several
 * processes at once: each claims its row with FOR UPDATE SKIP LOCKED.
 */
export async function purgeDueAccounts(ctx: Pick<AppContext, 'db' | 'storage' | 'config' | 'logger' | 'now' | 'saveKinds'>): Promise<PurgeResult[]> {
  const { db, logger } = ctx;
  const now = ctx.now();
  const due = await dueDeletions(db, now);
  // Confirmation links (members without a password) that were never used: the request lapses.
  await deleteLapsedConfirmations(db, now);
  const results: PurgeResult[] = [];
  for (const { profile_id: profileId } of due) {
    const done = await db.transaction(async (trx) => {
      const content = await claimDueDeletion(trx, profileId, now);
      // CASE: undone, or another process is purging this member right now.
      if (!content) return null;
      // CASE: restored by hand without removing the request; never purge an active account.
      if (!(await isInactiveProfile(trx, profileId))) return null;
      return purgeMember(trx, ctx.saveKinds, profileId, content);
    });
    if (!done) continue;
    await deleteFiles(ctx, done.files);
    logger.info(done.result, 'account purged');
    results.push(done.result);
  }
  return results;
}

async function deleteFiles(ctx: Pick<AppContext, 'storage' | 'config' | 'logger'>, keys: string[]): Promise<void> {
  const renditions = renditionStore(ctx);
  for (const key of keys) {
    await Promise.all([ctx.storage.delete(key), purgeRenditions(renditions, key)]).catch((err) => ctx.logger.warn({ err, key }, 'account purge: a file was not deleted'));
  }
}
