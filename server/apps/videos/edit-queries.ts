import type { Knex } from 'knex';
import type { Db } from '../../db';
import { ValidationError } from '../../http/errors';
import { minuteFloor } from '../../db/count-cache';
import { recordSlugChange } from '../../http/pages/old-slugs';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { allVideosQuery } from './queries';
import type { VideoRow } from './serialize';

// What staff's video pages (/staff/videos/) read and write. A save is one transaction: the
// video, its old address when the slug changed, and its staff audit entry, or none of them.

/** Every category, by name, for the form's choice (not only those with a published video). */
export async function videoCategoryChoices(db: Db): Promise<Array<{ id: number; name: string; slug: string }>> {
  const rows: Array<{ id: number | string; name: string; slug: string }> = await db('video_categories').orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name', 'slug');
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A video, published or not, for its staff page. */
export async function videoForStaff(db: Db, id: number): Promise<VideoRow | undefined> {
  return allVideosQuery(db).where('v.id', id).first();
}

/** The newest videos first, for the staff list. */
export async function staffVideoList(db: Db, limit: number): Promise<VideoRow[]> {
  return allVideosQuery(db).orderBy([{ column: 'v.date_published', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(limit);
}

export interface VideoSave {
  youtube_code: string;
  title: string;
  slug: string;
  description: string;
  category_id: number;
  /** A new image's key; undefined keeps the current one. */
  image_key?: string;
  image_source?: 'upload' | 'youtube';
}

/**
 * Adds a video (published at `now`) or changes video `id`, with the staff audit entry, in one
 * transaction. Refused on its field: a category that is not there, a slug another video has.
 * Answers the video as it was before (null for a new one) and its id.
 */
export async function saveVideo(db: Knex, ctx: { actor: StaffActor; now: Date }, id: number | null, video: VideoSave): Promise<{ id: number; before: { slug: string; category_slug: string | null } | null; category_slug: string }> {
  return db.transaction(async (trx) => {
    const category: { slug: string } | undefined = await trx('video_categories').where('id', video.category_id).first('slug');
    if (!category) throw ValidationError.field('category', 'Choose a category.');
    const taken = await trx('videos').where('slug', video.slug).modify((q) => { if (id !== null) q.whereNot('id', id); }).first('id');
    if (taken) throw ValidationError.field('slug', 'Another video has this address: choose another.');
    const row = { youtube_code: video.youtube_code, title: video.title, slug: video.slug, description: video.description, category_id: video.category_id, ...(video.image_key ? { image_key: video.image_key } : {}) };
    let before: { slug: string; category_slug: string | null } | null = null;
    let videoId: number;
    if (id === null) {
      // The lists read "published by now" to the minute (minuteFloor): dated to this minute's
      // start, the video is on them at once, not a minute later.
      const [inserted] = await trx('videos').insert({ ...row, date_published: minuteFloor(ctx.now) }).returning('id');
      videoId = Number(typeof inserted === 'object' ? inserted.id : inserted);
    } else {
      // Locked, so the "before" the purge and the audit entry name is the one this save replaced.
      const old: { slug: string; category_slug: string | null } | undefined = await trx('videos as v').leftJoin('video_categories as vc', 'vc.id', 'v.category_id').where('v.id', id).forUpdate('v').first('v.slug', 'vc.slug as category_slug');
      if (!old) throw ValidationError.field('id', 'Not a valid video.');
      before = old;
      await trx('videos').where('id', id).update(row);
      videoId = id;
    }
    // A changed slug keeps its old address, as a 301 to this video (videoPage).
    await recordSlugChange(trx, 'video', videoId, before?.slug ?? null, video.slug);
    await recordStaffAction(trx, ctx.actor, {
      action: id === null ? 'video.create' : 'video.update',
      subjectType: 'video',
      subjectId: videoId,
      detail: { title: video.title, slug: video.slug, youtube_code: video.youtube_code, category: category.slug, ...(video.image_key ? { new_image: video.image_source ?? 'upload' } : {}), ...(before && before.slug !== video.slug ? { old_slug: before.slug } : {}) },
    });
    return { id: videoId, before, category_slug: category.slug };
  });
}
