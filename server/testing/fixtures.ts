import type { Db } from '../db';
import { slugify } from '../../shared/format/text';
import { expandOccurrences, scheduleColumns, type Schedule } from '../apps/events/schedule';
import { replaceOccurrences } from '../apps/events/occurrence-queries';

// Small factories for tests: each inserts one row with sensible defaults and answers its id.
// Tests state only the fields they are about.

let n = 0;
const next = () => ++n;

const SQUARE: [number, number][][] = [[[-79.40, 43.64], [-79.38, 43.64], [-79.38, 43.66], [-79.40, 43.66], [-79.40, 43.64]]];

export async function createNeighbourhood(db: Db, fields: Partial<{ id: number; name: string }> = {}): Promise<number> {
  const i = next();
  const id = fields.id ?? 900 + i;
  const name = fields.name ?? `Test Neighbourhood ${i}`;
  await db('neighbourhoods').insert({
    id,
    name,
    slug: slugify(name),
    boundaries: JSON.stringify({ type: 'MultiPolygon', coordinates: [SQUARE] }),
    label_latitude: 43.65,
    label_longitude: -79.39,
    min_latitude: 43.64,
    min_longitude: -79.4,
    max_latitude: 43.66,
    max_longitude: -79.38,
  });
  return id;
}

export async function createSubwayStop(db: Db, fields: Partial<{ name: string; latitude: number; longitude: number }> = {}): Promise<number> {
  const i = next();
  const name = fields.name ?? `Station ${i}`;
  const [row] = await db('subway_stops')
    .insert({ slug: slugify(name), name, lines: '1', latitude: fields.latitude ?? 43.6453, longitude: fields.longitude ?? -79.3806 })
    .returning('id');
  return row.id;
}

export async function createListingType(db: Db, fields: Partial<{ name: string; slug: string }> = {}): Promise<number> {
  const i = next();
  const name = fields.name ?? `Type ${i}`;
  const [row] = await db('listing_types').insert({ name, slug: fields.slug ?? slugify(name), position: i }).returning('id');
  return row.id;
}

export async function createListingSubType(db: Db, typeId: number, fields: Partial<{ name: string; slug: string }> = {}): Promise<number> {
  const i = next();
  const name = fields.name ?? `Sub-type ${i}`;
  const [row] = await db('listing_sub_types').insert({ type_id: typeId, name, slug: fields.slug ?? slugify(name), position: i }).returning('id');
  return row.id;
}

export interface ListingFields {
  name: string;
  type_id: number;
  sub_type_id: number | null;
  neighbourhood_id: number | null;
  nearest_subway_stop_id: number | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  rating: number | null;
  rating_count: number;
  rating_rank: number | null;
  favourite_count: number;
  smart_review_score: number;
  appears_in_best_of_lists: boolean;
  dinesafe_establishment_id: number | null;
  date_published: Date;
  description: string;
  image_key: string | null;
  phone: string;
  website: string;
}

export async function createListing(db: Db, fields: Partial<ListingFields> = {}): Promise<number> {
  const i = next();
  const type_id = fields.type_id ?? (await createListingType(db));
  const name = fields.name ?? `Test Place ${i}`;
  const [row] = await db('listings')
    .insert({
      name,
      slug: slugify(name),
      address: `${i} Queen St W`,
      latitude: 43.65,
      longitude: -79.39,
      // A fixture that gives only a star average ranks by it, as if it had many votes.
      rating_rank: fields.rating ?? null,
      ...fields,
      type_id,
    })
    .returning('id');
  return row.id;
}

export async function createArticleType(db: Db, slug = 'news', name = 'News'): Promise<number> {
  const existing = await db('article_types').where({ slug }).first('id');
  if (existing) return existing.id;
  const [row] = await db('article_types').insert({ slug, name }).returning('id');
  return row.id;
}

export async function createArticle(
  db: Db,
  fields: Partial<{ name: string; type_slug: string; excerpt: string; body: string; date_published: Date; is_featured: boolean; is_slideshow: boolean; image_key: string | null; status: string }> = {},
): Promise<number> {
  const i = next();
  const { type_slug = 'news', ...rest } = fields;
  const typeId = await createArticleType(db, type_slug, type_slug.replace(/(^|-)(\w)/g, (_m, sep, c) => (sep ? ' ' : '') + c.toUpperCase()));
  const name = rest.name ?? `Test article ${i}`;
  const published = rest.date_published ?? new Date(Date.UTC(2026, 0, 1) + i * 60_000);
  const slug = `${slugify(name)}-${i}`;
  const path = `/${type_slug}/${published.getUTCFullYear()}/${String(published.getUTCMonth() + 1).padStart(2, '0')}/${slug}/`;
  const [row] = await db('articles')
    .insert({ excerpt: 'An excerpt.', body: 'First paragraph.\n\nSecond paragraph.', ...rest, name, slug, path, type_id: typeId, date_published: published })
    .returning('id');
  return row.id;
}

export async function createEvent(
  db: Db,
  fields: Partial<{ title: string; venue_name: string; status: string; can_be_bookmarked: boolean; listing_id: number | null; submitted_by: number | null }> & { schedule?: Schedule } = {},
  timeZone = 'Canada/Eastern',
): Promise<number> {
  const i = next();
  const { schedule = { schedule_type: 'single_day', start_date: '2026-12-05', start_time: '19:00', end_time: '21:00' }, ...rest } = fields;
  const title = rest.title ?? `Test event ${i}`;
  const [row] = await db('events')
    .insert({
      slug: slugify(title),
      venue_name: 'Massey Hall',
      address: '178 Victoria St',
      latitude: 43.6542,
      longitude: -79.3789,
      ...rest,
      title,
      ...scheduleColumns(schedule),
    })
    .returning('id');
  await replaceOccurrences(db, row.id, expandOccurrences(schedule, timeZone));
  return row.id;
}

export async function createVideo(db: Db, fields: Partial<{ title: string; category: string; date_published: Date }> = {}): Promise<number> {
  const i = next();
  let categoryId: number | null = null;
  if (fields.category) {
    const slug = slugify(fields.category);
    const existing = await db('video_categories').where({ slug }).first('id');
    categoryId = existing ? existing.id : (await db('video_categories').insert({ name: fields.category, slug }).returning('id'))[0].id;
  }
  const title = fields.title ?? `Test video ${i}`;
  const [row] = await db('videos')
    .insert({ title, slug: `${slugify(title)}-${i}`, youtube_code: `abcdefghi${String(i).padStart(2, '0')}`.slice(-11), category_id: categoryId, date_published: fields.date_published ?? new Date(Date.UTC(2026, 0, 1) + i * 60_000) })
    .returning('id');
  return row.id;
}

export async function createContest(
  db: Db,
  fields: Partial<{ title: string; start_date: Date; end_date: Date; date_published: Date; prize: string; skill_question: string; skill_answer: number }> = {},
): Promise<number> {
  const i = next();
  const { title = `Win tickets ${i}`, ...rest } = fields;
  const [row] = await db('contests')
    .insert({ end_date: new Date(Date.now() + 7 * 86400_000), date_published: new Date(), ...rest, title, name: `${slugify(title)}-${i}` })
    .returning('id');
  return row.id;
}

export async function createPhoto(db: Db, fields: Partial<{ listing_id: number; profile_id: number | null; title: string; creation_date: Date; image_key: string }> = {}): Promise<number> {
  const i = next();
  const [row] = await db('photos')
    .insert({ image_key: `test/photo-${i}.jpg`, width: 1200, height: 800, title: `Photo ${i}`, ...fields })
    .returning('id');
  return row.id;
}
