import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { AnySaveKind } from '../saves/kind';
import { purgeRenditions, renditionStore } from '../media/renditions';
import { deleteMemberReports } from '../accessibility/queries';
import type { ContentChoice } from './schemas';

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
  const profile = await trx('profiles').where({ id: profileId }).first('email', 'avatar');
  if (profile?.avatar) files.push(profile.avatar);

  // Every kind of save the member has (the context's, as the saving APIs use); counters move through the kind's own onChange.
  const kinds: AnySaveKind[] = Object.values(saveKinds);
  for (const kind of kinds) {
    const deleted: Array<Record<string, number>> = await trx(kind.table).where({ profile_id: profileId }).delete().returning(kind.objectColumn);
    if (!kind.onChange) continue;
    // One listing at a time, in id order, as the writers lock them (no deadlock with a live rating).
    const objects = [...new Set(deleted.map((row) => Number(row[kind.objectColumn])))].sort((a, b) => a - b);
    for (const objectId of objects) await kind.onChange(trx, objectId, 'deleted');
  }

  // Accessibility reports, each place's counts recounted without them (accessibility app).
  await deleteMemberReports(trx, profileId);

  for (const { table, column } of MEMBER_TABLES) await trx(table).where({ [column]: profileId }).delete();
  if (profile) await trx('guest_newsletter_subscriptions').whereRaw('lower(email) = ?', [String(profile.email).toLowerCase()]).delete();

  let photosRemoved = 0;
  let photosKept = 0;
  let eventsRemoved = 0;
  let eventsKept = 0;
  if (content === 'remove') {
    const photos: Array<{ image_key: string }> = await trx('photos').where({ profile_id: profileId }).delete().returning('image_key');
    const events: Array<{ image_key: string | null }> = await trx('events').where({ submitted_by: profileId }).delete().returning('image_key');
    files.push(...photos.map((p) => p.image_key), ...events.flatMap((e) => (e.image_key ? [e.image_key] : [])));
    photosRemoved = photos.length;
    eventsRemoved = events.length;
  } else {
    photosKept = await trx('photos').where({ profile_id: profileId }).update({ profile_id: null });
    eventsKept = await trx('events').where({ submitted_by: profileId }).update({ submitted_by: null });
  }

  // The profile last: its deletion cascades to anything a table above missed, and to the
  // account_deletions row.
  await trx('profiles').where({ id: profileId }).delete();
  return { result: { profileId, content, photosRemoved, photosKept, eventsRemoved, eventsKept }, files };
}

/**
 * Purges every account whose seven days are over at ctx.now(). Safe to run from several
 * processes at once: each claims its row with FOR UPDATE SKIP LOCKED.
 */
export async function purgeDueAccounts(ctx: Pick<AppContext, 'db' | 'storage' | 'config' | 'logger' | 'now' | 'saveKinds'>): Promise<PurgeResult[]> {
  const { db, logger } = ctx;
  const now = ctx.now();
  const due: Array<{ profile_id: number }> = await db('account_deletions').where('purge_after', '<=', now).orderBy('purge_after').select('profile_id');
  // Confirmation links (members without a password) that were never used: the request lapses.
  await db('account_deletions').whereNull('requested_at').where('confirm_expires_at', '<=', now).delete();
  const results: PurgeResult[] = [];
  for (const { profile_id: profileId } of due) {
    const done = await db.transaction(async (trx) => {
      const row = await trx('account_deletions')
        .where({ profile_id: profileId })
        .where('purge_after', '<=', now)
        .forUpdate()
        .skipLocked()
        .first('content');
      // CASE: undone, or another process is purging this member right now.
      if (!row) return null;
      // CASE: restored by hand without removing the request; never purge an active account.
      const inactive = await trx('profiles').where({ id: profileId, is_active: false }).first('id');
      if (!inactive) return null;
      return purgeMember(trx, ctx.saveKinds, profileId, row.content as ContentChoice);
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
