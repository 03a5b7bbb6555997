import type { Db } from '../../db';
import { videosQuery, type VideoRow } from './serialize';
import { whereVideoIsPublic } from './queries';

export interface VideoCategoryRow {
  id: number;
  name: string;
  slug: string;
}

/** The categories that have a published video, for the channel links. */
export async function videoCategories(db: Db, now: Date): Promise<VideoCategoryRow[]> {
  return db('video_categories as vc')
    .whereExists(whereVideoIsPublic(db('videos as v').whereRaw('v.category_id = vc.id'), now).select(db.raw('1')))
    .orderBy('vc.name')
    .select('vc.id', 'vc.name', 'vc.slug');
}

export async function videoCategoryBySlug(db: Db, slug: string): Promise<VideoCategoryRow | undefined> {
  return db('video_categories').where({ slug }).first('id', 'name', 'slug');
}

export async function publishedVideo(db: Db, slug: string, now: Date): Promise<VideoRow | undefined> {
  return whereVideoIsPublic(videosQuery(db), now).where('v.slug', slug).first();
}

/** More from the same channel (or the latest, without one), for under the player. */
export async function relatedVideos(db: Db, video: VideoRow, now: Date, limit: number): Promise<VideoRow[]> {
  const qb = whereVideoIsPublic(videosQuery(db), now).whereNot('v.id', video.id);
  if (video.category_id) qb.where('v.category_id', video.category_id);
  return qb.orderBy([{ column: 'v.date_published', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(limit);
}
