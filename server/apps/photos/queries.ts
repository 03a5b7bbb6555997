import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { PageParams } from '../../http/pagination';
import type { PhotoRow } from './serialize';
import { joinCreditedAuthor } from '../profiles/credited-author-queries';
import type { PhotoListQuery } from './schemas';
import type { PhotoPlace } from './photo-change';

export const PHOTO_COLUMNS = [
  'p.id', 'p.title', 'p.description', 'p.image_key', 'p.width', 'p.height', 'p.creation_date', 'p.instagram_user', 'p.profile_id',
  'p.listing_id', 'pl.name as listing_name', 'pl.slug as listing_slug', 'plt.slug as listing_type_slug',
  'pp.id as author_id', 'pp.full_name as author_full_name', 'pp.avatar as author_avatar',
] as const;

/** photos p with their listing pl and credited author pp. A photo has no public scope: staff remove, not hide. */
export function photosQuery(db: Db) {
  const photos = db('photos as p')
    .leftJoin('listings as pl', 'pl.id', 'p.listing_id')
    .leftJoin('listing_types as plt', 'plt.id', 'pl.type_id');
  return joinCreditedAuthor(photos, 'pp', 'p.profile_id').select([...PHOTO_COLUMNS]);
}

export interface PhotoFilter {
  listingId?: number;
  profileId?: number;
}

function applyFilter(q: Knex.QueryBuilder, filter: PhotoFilter): Knex.QueryBuilder {
  if (filter.listingId !== undefined) q.where('p.listing_id', filter.listingId);
  if (filter.profileId !== undefined) q.where('p.profile_id', filter.profileId);
  return q;
}

export async function countPhotos(db: Db, filter: PhotoFilter): Promise<number> {
  const row = (await applyFilter(db('photos as p'), filter).count('* as n').first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

export async function listPhotos(db: Db, filter: PhotoFilter, ordering: PhotoListQuery['ordering'], page: PageParams): Promise<PhotoRow[]> {
  const desc = (ordering ?? '-creation_date').startsWith('-');
  const column = (ordering ?? '-creation_date').replace(/^-/, '');
  const q = applyFilter(photosQuery(db), filter);
  // id breaks ties, so pages never repeat or skip a photo taken in the same second.
  if (column === 'creation_date') q.orderBy([{ column: 'p.creation_date', order: desc ? 'desc' : 'asc' }, { column: 'p.id', order: desc ? 'desc' : 'asc' }]);
  else q.orderBy('p.id', desc ? 'desc' : 'asc');
  return (await q.limit(page.limit).offset(page.offset)) as PhotoRow[];
}

export async function findPhoto(db: Db, id: number): Promise<PhotoRow | undefined> {
  return photosQuery(db).where('p.id', id).first();
}

export async function listingExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db('listings').where({ id }).first('id'));
}

export async function insertPhoto(
  db: Db,
  row: { profile_id: number; listing_id: number; title: string; description: string; image_key: string; width: number; height: number; creation_date: Date },
): Promise<number> {
  const [inserted] = await db('photos').insert(row).returning('id');
  return Number(inserted.id ?? inserted);
}

/** Where a photo is shown: its place's id and URL slugs (undefined when the photo is gone or has no place). */
export async function photoPlace(db: Db, photoId: number): Promise<PhotoPlace | undefined> {
  return db('photos as p')
    .join('listings as l', 'l.id', 'p.listing_id')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .where('p.id', photoId)
    .first('l.id as listing_id', 'l.slug', 'lt.slug as type_slug');
}

/** Deletes the member's own photo; answers its image key, or null when it is not theirs. */
export async function deleteOwnPhoto(db: Db, id: number, profileId: number): Promise<string | null> {
  const [deleted] = await db('photos').where({ id, profile_id: profileId }).delete().returning('image_key');
  return deleted ? deleted.image_key : null;
}
