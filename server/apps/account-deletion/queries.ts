import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { ContentChoice } from './schemas';

// The request side's reads and writes: a member's account_deletions row (one per member,
// asked for, confirmed or closed), the profile it closes and restores, and what the form and
// the login notice show. The purge's own are in purge-queries.ts.

/** The account_deletions row of a closed account: the undo link's hash and when the purge may run. */
export type ScheduledDeletion = {
  content: ContentChoice;
  undo_token_hash: string;
  requested_at: Date;
  purge_after: Date;
  confirm_token_hash: null;
  confirm_expires_at: null;
};

/** A request waiting for its emailed confirmation (members who have no password). */
export type ConfirmationRequest = { content: ContentChoice; confirm_token_hash: string; confirm_expires_at: Date };

export async function passwordHashOf(db: Db, memberId: number): Promise<string | null> {
  const row = await db('profiles').where({ id: memberId }).first('password_hash');
  return row?.password_hash ?? null;
}

export async function countMemberPhotos(db: Db, memberId: number): Promise<number> {
  const row = await db('photos').where({ profile_id: memberId }).first(db.raw('count(*)::int as n'));
  return Number(row?.n ?? 0);
}

export async function countSubmittedEvents(db: Db, memberId: number): Promise<number> {
  const row = await db('events').where({ submitted_by: memberId }).first(db.raw('count(*)::int as n'));
  return Number(row?.n ?? 0);
}

/** Writes the member's request as scheduled, over any earlier one (a confirmation link's). */
export async function upsertScheduledDeletion(trx: Knex.Transaction, profileId: number, fields: ScheduledDeletion): Promise<void> {
  await trx('account_deletions').insert({ profile_id: profileId, ...fields }).onConflict('profile_id').merge();
}

/** Writes the member's request as waiting for its confirmation link, over any earlier one. */
export async function upsertConfirmationRequest(db: Db, profileId: number, fields: ConfirmationRequest): Promise<void> {
  await db('account_deletions').insert({ profile_id: profileId, ...fields }).onConflict('profile_id').merge();
}

/** Closes the account (is_active false); answers its email. */
export async function deactivateProfile(trx: Knex.Transaction, profileId: number): Promise<string> {
  const [profile] = await trx('profiles').where({ id: profileId }).update({ is_active: false }).returning('email');
  return String(profile.email);
}

/** Opens the account again (is_active true); answers its email. */
export async function reactivateProfile(trx: Knex.Transaction, profileId: number): Promise<string> {
  const [profile] = await trx('profiles').where({ id: profileId }).update({ is_active: true }).returning('email');
  return String(profile.email);
}

/** The request a confirmation link's hash stands for, while the link is good and the account open. */
export async function findPendingConfirmation(db: Db, hash: string, now: Date): Promise<{ profile_id: number; content: ContentChoice; email: string } | undefined> {
  return db('account_deletions as d')
    .join('profiles as p', 'p.id', 'd.profile_id')
    .where({ 'd.confirm_token_hash': hash, 'p.is_active': true })
    .whereNull('d.requested_at')
    .where('d.confirm_expires_at', '>', now)
    .first('d.profile_id', 'd.content', 'p.email');
}

/** The closed account an undo link's hash stands for, while the seven days last. */
export async function findUndoable(db: Db, hash: string, now: Date): Promise<{ email: string; purge_after: Date } | undefined> {
  return db('account_deletions as d')
    .join('profiles as p', 'p.id', 'd.profile_id')
    .where({ 'd.undo_token_hash': hash })
    .where('d.purge_after', '>', now)
    .first('p.email', 'd.purge_after');
}

/** The member an undo link's hash stands for, their request locked (FOR UPDATE) for the rest of the transaction. */
export async function lockUndoableDeletion(trx: Knex.Transaction, hash: string, now: Date): Promise<number | undefined> {
  const row = await trx('account_deletions').where({ undo_token_hash: hash }).where('purge_after', '>', now).forUpdate().first('profile_id');
  return row?.profile_id;
}

export async function deleteDeletionRequest(trx: Knex.Transaction, profileId: number): Promise<void> {
  await trx('account_deletions').where({ profile_id: profileId }).delete();
}

/** A closed account's request while the undo window lasts (the login notice). */
export async function findPendingDeletion(db: Db, memberId: number, now: Date): Promise<{ requested_at: Date; purge_after: Date } | undefined> {
  return db('account_deletions')
    .where({ profile_id: memberId })
    .whereNotNull('requested_at')
    .where('purge_after', '>', now)
    .first('requested_at', 'purge_after');
}
