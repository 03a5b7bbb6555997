import type { Db } from '../../db';
import { type VideoRow, toVideoDTO } from './serialize';
import { z } from 'zod';
import type { Knex } from 'knex';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import type { VideoDTO } from '../../../shared/dto';
import { validate } from '../../http/validate';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import { cachedCount, minuteFloor } from '../../db/count-cache';
import { oldSlugSubject } from '../../http/pages/old-slugs';

export const VIDEO_COLUMNS = [
  'v.id', 'v.title', 'v.slug', 'v.description', 'v.youtube_code', 'v.image_key', 'v.date_published', 'v.duration_seconds',
  'vc.id as category_id', 'vc.name as category_name', 'vc.slug as category_slug',
] as const;

/** Every video, published or scheduled, with its category vc: for staff reads only. */
export function allVideosQuery(db: Db) {
  return db('videos as v').leftJoin('video_categories as vc', 'vc.id', 'v.category_id').select([...VIDEO_COLUMNS]);
}

/** The videos a reader may see at `now` (whereVideoIsPublic) with their category vc. */
export function videosQuery(db: Db, now: Date) {
  return whereVideoIsPublic(allVideosQuery(db), now);
}

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
  return videosQuery(db, now).where('v.slug', slug).first();
}

/** The current slug of the public video that once had `slug` (staff changed it since), if any. */
export async function movedVideoSlug(db: Db, slug: string, now: Date): Promise<string | undefined> {
  const row: { slug: string } | undefined = await whereVideoIsPublic(db('videos as v'), now).whereIn('v.id', oldSlugSubject(db, 'video', slug)).first('v.slug');
  return row?.slug;
}

/** More from the same channel (or the latest, without one), for under the player. */
export async function relatedVideos(db: Db, video: VideoRow, now: Date, limit: number): Promise<VideoRow[]> {
  const qb = videosQuery(db, now).whereNot('v.id', video.id);
  if (video.category_id) qb.where('v.category_id', video.category_id);
  return qb.orderBy([{ column: 'v.date_published', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(limit);
}

// Videos: newest first, optionally one category (by slug), 36 to a page (spec 1 §9).

/**
 * What a reader may see of videos, written once (the hubs, a video's page and its related row,
 * the API, the sitemap, search filter through it). Each content type has one such scope, named
 * `where<Type>IsPublic(qb, now, alias)`. A video is public from its date_published.
 */
export function whereVideoIsPublic<Q extends Knex.QueryBuilder>(qb: Q, now: Date, alias = 'v'): Q {
  qb.where(`${alias}.date_published`, '<=', now);
  return qb;
}

export const VIDEO_ORDERINGS = ['-date_published', 'date_published', 'title'] as const;

export interface VideoListParams extends PageParams {
  category?: string;
  ordering: (typeof VIDEO_ORDERINGS)[number];
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const schema = z.object({
  category: z.preprocess(blankToUndefined, z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, 'Enter a valid slug.').optional()),
  ordering: z.preprocess(blankToUndefined, z.enum(VIDEO_ORDERINGS, { message: `Select a valid choice: ${VIDEO_ORDERINGS.join(', ')}.` }).default('-date_published')),
});

export function parseVideoListParams(query: unknown, defaultLimit: number = PAGE_SIZE.videos): VideoListParams {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  const v = validate(schema, q);
  return { ...page, category: v.category?.toLowerCase(), ordering: v.ordering };
}

export async function listVideos(db: Db, p: VideoListParams, opts: { siteUrl: string; now: Date }): Promise<{ count: number; results: VideoDTO[] }> {
  const at = minuteFloor(opts.now);
  const filter = (qb: ReturnType<Db>) => {
    if (p.category) qb.where('v.category_id', db('video_categories').select('id').where('slug', p.category));
    return qb;
  };
  const total = await cachedCount(db, filter(whereVideoIsPublic(db('videos as v').count({ count: '*' }), at)));
  if (total === 0 || p.offset >= total) return { count: total, results: [] };
  const qb = filter(videosQuery(db, at));
  if (p.ordering === 'title') qb.orderBy('v.title').orderBy('v.id');
  else if (p.ordering === 'date_published') qb.orderBy('v.date_published').orderBy('v.id');
  else qb.orderBy('v.date_published', 'desc').orderBy('v.id', 'desc');
  const rows: VideoRow[] = await qb.offset(p.offset).limit(p.limit);
  return { count: total, results: rows.map((r) => toVideoDTO(r, opts.siteUrl)) };
}
