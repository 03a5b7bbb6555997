import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { ContentChoice } from './schemas';

// The purge's reads and writes (purge-job.ts): which requests are due, claiming one, and the
// deletions of one member's rows, each inside that member's transaction.

/** The members whose seven days are over at `now`, the longest due first. */
export async function dueDeletions(db: Db, now: Date): Promise<Array<{ profile_id: number }>> {
  return db('account_deletions').where('purge_after', '<=', now).orderBy('purge_after').select('profile_id');
}

/** Confirmation links (members without a password) that were never used: the request lapses. */
export async function deleteLapsedConfirmations(db: Db, now: Date): Promise<void> {
  await db('account_deletions').whereNull('requested_at').where('confirm_expires_at', '<=', now).delete();
}

/**
 * Claims a member's due request for this transaction (FOR UPDATE SKIP LOCKED): nothing when
 * it was undone, or another process is purging this member right now. Answers their choice.
 */
export async function claimDueDeletion(trx: Knex.Transaction, profileId: number, now: Date): Promise<ContentChoice | undefined> {
  const row = await trx('account_deletions')
    .where({ profile_id: profileId })
    .where('purge_after', '<=', now)
    .forUpdate()
    .skipLocked()
    .first('content');
  return row?.content;
}

export async function isInactiveProfile(trx: Knex.Transaction, profileId: number): Promise<boolean> {
  return Boolean(await trx('profiles').where({ id: profileId, is_active: false }).first('id'));
}

export async function profileEmailAndAvatar(trx: Knex.Transaction, profileId: number): Promise<{ email: string; avatar: string | null } | undefined> {
  return trx('profiles').where({ id: profileId }).first('email', 'avatar');
}

/** Deletes the member's rows of one save table; answers each deleted row's object column. */
export async function deleteMemberSaves(trx: Knex.Transaction, table: string, objectColumn: string, profileId: number): Promise<Array<Record<string, number>>> {
  return trx(table).where({ profile_id: profileId }).delete().returning(objectColumn);
}

/** Deletes the member's rows of a table that holds them by `column`. */
export async function deleteMemberRows(trx: Knex.Transaction, table: string, column: string, profileId: number): Promise<void> {
  await trx(table).where({ [column]: profileId }).delete();
}

/** Deletes a guest newsletter subscription of the member's address (any case). */
export async function deleteGuestSubscription(trx: Knex.Transaction, email: string): Promise<void> {
  await trx('guest_newsletter_subscriptions').whereRaw('lower(email) = ?', [email.toLowerCase()]).delete();
}

/** Deletes the member's photos; answers their storage keys. */
export async function deleteMemberPhotos(trx: Knex.Transaction, profileId: number): Promise<Array<{ image_key: string }>> {
  return trx('photos').where({ profile_id: profileId }).delete().returning('image_key');
}

/** Deletes the events the member submitted; answers their pictures' storage keys. */
export async function deleteSubmittedEvents(trx: Knex.Transaction, profileId: number): Promise<Array<{ image_key: string | null }>> {
  return trx('events').where({ submitted_by: profileId }).delete().returning('image_key');
}

/** Keeps the member's photos without the member; answers how many. */
export async function unlinkMemberPhotos(trx: Knex.Transaction, profileId: number): Promise<number> {
  return trx('photos').where({ profile_id: profileId }).update({ profile_id: null });
}

/** Keeps the events the member submitted without the member; answers how many. */
export async function unlinkSubmittedEvents(trx: Knex.Transaction, profileId: number): Promise<number> {
  return trx('events').where({ submitted_by: profileId }).update({ submitted_by: null });
}

export async function deleteProfile(trx: Knex.Transaction, profileId: number): Promise<void> {
  await trx('profiles').where({ id: profileId }).delete();
}
