import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { NotFoundError } from '../../http/errors';
import { urls } from '../../../shared/urls';
import { purgePhotoFiles } from '../photos/service';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';

// Recent listing photos for staff review, and their removal. A listing's photo count is
// counted from the photos table wherever it is shown, so deleting the row keeps every count
// right; the stored file and its renditions go after the commit, as an owner's delete does.

export const PHOTOS_PER_PAGE = 48;

export interface StaffPhotoRow {
  id: number;
  title: string;
  description: string;
  image_key: string;
  creation_date: Date;
  listing_id: number | null;
  listing_name: string | null;
  listing_url: string | null;
  listing_photo_count: number;
  uploader_email: string | null;
  uploader_name: string | null;
  instagram_user: string | null;
}

export async function recentListingPhotos(db: Db, page: { limit: number; offset: number }): Promise<{ count: number; photos: StaffPhotoRow[] }> {
  const [countRow, rows] = await Promise.all([
    db('photos').count('* as n').first() as Promise<{ n: string | number } | undefined>,
    db('photos as p')
      .leftJoin('listings as l', 'l.id', 'p.listing_id')
      .leftJoin('listing_types as lt', 'lt.id', 'l.type_id')
      .leftJoin('profiles as pr', 'pr.id', 'p.profile_id')
      .orderBy([{ column: 'p.creation_date', order: 'desc' }, { column: 'p.id', order: 'desc' }])
      .limit(page.limit)
      .offset(page.offset)
      .select(
        'p.id', 'p.title', 'p.description', 'p.image_key', 'p.creation_date', 'p.listing_id', 'p.instagram_user',
        'l.name as listing_name', 'l.slug as listing_slug', 'lt.slug as type_slug',
        'pr.email as uploader_email', 'pr.full_name as uploader_name',
        db.raw('(select count(*)::int from photos c where c.listing_id = p.listing_id) as listing_photo_count'),
      ),
  ]);
  const photos = (rows as Array<Record<string, unknown>>).map((r) => ({
    id: Number(r.id),
    title: String(r.title ?? ''),
    description: String(r.description ?? ''),
    image_key: String(r.image_key),
    creation_date: r.creation_date as Date,
    listing_id: r.listing_id === null ? null : Number(r.listing_id),
    listing_name: (r.listing_name as string | null) ?? null,
    listing_url: r.listing_id && r.type_slug && r.listing_slug ? urls.listingPhotos(String(r.type_slug), String(r.listing_slug), Number(r.listing_id)) : null,
    listing_photo_count: Number(r.listing_photo_count ?? 0),
    uploader_email: (r.uploader_email as string | null) ?? null,
    uploader_name: (r.uploader_name as string | null) ?? null,
    instagram_user: (r.instagram_user as string | null) ?? null,
  }));
  return { count: Number(countRow?.n ?? 0), photos };
}

/** Whether the photo is there (a refused removal of one that is gone is a 404). */
export async function listingPhotoExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db('photos').where({ id }).first('id'));
}

export async function removeListingPhoto(ctx: AppContext, actor: StaffActor, id: number, note: string): Promise<{ id: number; title: string }> {
  const removed = await ctx.db.transaction(async (trx) => {
    const [row] = await trx('photos').where({ id }).delete().returning(['id', 'title', 'image_key', 'listing_id', 'profile_id']);
    if (!row) throw new NotFoundError(`No photo with id ${id}.`);
    await recordStaffAction(trx, actor, {
      action: 'photo.remove',
      subjectType: 'photo',
      subjectId: id,
      note: note || null,
      detail: { title: row.title, listing_id: row.listing_id, profile_id: row.profile_id, image_key: row.image_key },
    });
    return row as { id: number; title: string; image_key: string };
  });
  // CASE: the row is gone but a file could not be deleted: the photo is no longer shown
  // anywhere, so this is a stray file to log, not a failed removal.
  await purgePhotoFiles(ctx, removed.image_key).catch((err) => ctx.logger.warn({ err, key: removed.image_key }, 'staff: photo removed but its files could not be deleted'));
  return { id: Number(removed.id), title: removed.title };
}
