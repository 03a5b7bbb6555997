import type { Db } from '../../db';
import type { ProfileCountsDTO } from '../../../shared/dto';
import { MEMBER_COLUMNS } from './member-queries';
import type { Member } from './member';
import type { ProfilePatch } from './schemas';

export async function updateProfile(db: Db, profileId: number, patch: ProfilePatch): Promise<Member> {
  // The PUT body may carry the profile's id; it identifies, it is never written.
  const { id: _id, ...fields } = patch as ProfilePatch & { id?: number };
  if (!Object.keys(fields).length) return db('profiles').select(MEMBER_COLUMNS).where({ id: profileId }).first();
  const [row] = await db('profiles').where({ id: profileId }).update(fields).returning(MEMBER_COLUMNS);
  return row as Member;
}

/** Sets the member's profile photo: a storage key, or null for none. */
export async function setAvatar(db: Db, profileId: number, avatar: string | null): Promise<void> {
  await db('profiles').where({ id: profileId }).update({ avatar });
}

/**
 * The seven dashboard counts in one round trip. To-dos count the open ones (the list the
 * dashboard box links to); events are saved events; bookmark_count is saved articles.
 */
export async function profileCounts(db: Db, profileId: number): Promise<ProfileCountsDTO> {
  const count = (table: string, extra = '') => `(SELECT count(*)::int FROM ${table} WHERE profile_id = :id${extra})`;
  const { rows } = (await db.raw(
    `SELECT ${count('favourites')} AS favourite_count,
            ${count('todos', ' AND is_done = false')} AS todos_count,
            ${count('article_bookmarks')} AS bookmark_count,
            ${count('event_bookmarks')} AS saved_events_count,
            ${count('ratings')} AS ratings_count,
            ${count('photos')} AS photo_count,
            ${count('video_bookmarks')} AS video_bookmarks_count`,
    { id: profileId },
  )) as { rows: ProfileCountsDTO[] };
  return rows[0];
}
