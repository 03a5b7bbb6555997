import type { Db } from '../../db';
import { NEWSLETTER_SETTING_KEYS } from '../../../shared/constants';
import type { Member } from './member';

export const MEMBER_COLUMNS = [
  'id', 'email', 'full_name', 'first_name', 'last_name', 'avatar', 'is_staff', 'newsroom_role', 'is_active',
  'sync_bookmarked_events_to_google_calendar', ...NEWSLETTER_SETTING_KEYS, 'last_updates', 'date_joined', 'last_login',
] as const;

export async function findMemberById(db: Db, id: number): Promise<Member | undefined> {
  return db('profiles').select(MEMBER_COLUMNS).where({ id, is_active: true }).first();
}

export async function findMemberByEmail(db: Db, email: string): Promise<(Member & { password_hash: string | null }) | undefined> {
  return db('profiles')
    .select([...MEMBER_COLUMNS, 'password_hash'])
    .whereRaw('lower(email) = ?', [email.trim().toLowerCase()])
    .first();
}

/** Moves a kind's `last_updates` stamp (article-bookmarks, video-bookmarks, favourites, todos…). */
export async function touchLastUpdate(db: Db, profileId: number, kind: string, at = new Date()): Promise<void> {
  await db('profiles')
    .where({ id: profileId })
    .update({ last_updates: db.raw("jsonb_set(last_updates, ARRAY[?]::text[], to_jsonb(?::text), true)", [kind, at.toISOString()]) });
}

/** Postgres' unique_violation: the database, not a prior SELECT, decides "already taken". */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23505';
}

export async function insertMember(
  db: Db,
  fields: { email: string; password_hash: string | null; full_name?: string; apple_sub?: string; facebook_id?: string },
): Promise<Member> {
  const [row] = await db('profiles').insert(fields).returning(MEMBER_COLUMNS);
  return row as Member;
}

export async function setPasswordHash(db: Db, profileId: number, passwordHash: string): Promise<void> {
  await db('profiles').where({ id: profileId }).update({ password_hash: passwordHash });
}

export async function recordLogin(db: Db, profileId: number, at: Date): Promise<void> {
  await db('profiles').where({ id: profileId }).update({ last_login: at });
}

/** The member linked to a social identity, active or not (the caller refuses an inactive one). */
export async function findMemberBy(db: Db, column: 'apple_sub' | 'facebook_id', value: string): Promise<Member | undefined> {
  return db('profiles').select(MEMBER_COLUMNS).where({ [column]: value }).first();
}

export async function linkSocialId(db: Db, profileId: number, column: 'apple_sub' | 'facebook_id', value: string): Promise<void> {
  await db('profiles').where({ id: profileId }).update({ [column]: value });
}

/**
 * Signs the member out everywhere (after a password reset or change), as Django does by
 * tying sessions to the password hash; `keepSid` spares the session making the change.
 */
export async function deleteMemberSessions(db: Db, profileId: number, keepSid?: string): Promise<number> {
  const q = db('sessions').whereRaw("(sess::jsonb -> 'passport' ->> 'user') = ?", [String(profileId)]);
  if (keepSid) q.whereNot('sid', keepSid);
  return q.delete();
}
