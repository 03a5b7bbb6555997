import type { Knex } from 'knex';
import { slugify } from '../../shared/format/text';
import { insertReturningIds, SlugRegistry } from './batch';
import type { ImagePool } from './images';
import type { ListingRef } from './listings';
import type { NeighbourhoodRef } from './neighbourhoods';
import type { Rng } from './random';

export const VIDEO_CATEGORIES = [
  { slug: 'food', name: 'Food', titles: ['We tried the most talked-about dish at {place}', 'Behind the counter at {place}', 'A day of eating in {hood}', 'How {place} makes it from scratch'] },
  { slug: 'neighbourhoods', name: 'Neighbourhoods', titles: ['A walk through {hood}', '{hood} in 60 seconds', 'What it is like to live in {hood}', 'Hidden corners of {hood}'] },
  { slug: 'events', name: 'Events', titles: ['Inside {event}', 'Highlights from {event}', 'The crowd at {event}'] },
  { slug: 'culture', name: 'Culture', titles: ['Meet the artists of {hood}', 'The stories behind the murals of {hood}', 'A night out in {hood}'] },
  { slug: 'real-estate', name: 'Real Estate', titles: ['Touring a home in {hood}', 'What $2,500 a month rents in {hood}', 'Inside a laneway house in {hood}'] },
  { slug: 'city-life', name: 'City Life', titles: ['Riding the TTC from end to end', 'Toronto from above: {hood}', 'Morning rush at Union Station', 'First snow in {hood}'] },
];

const YOUTUBE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** An 11-character id in YouTube's alphabet (demo only: it does not point to a real video). */
function youtubeCode(rng: Rng): string {
  return Array.from({ length: 11 }, () => YOUTUBE_ALPHABET[rng.int(0, 63)]).join('');
}

export async function seedVideos(db: Knex, opts: { rng: Rng; now: Date; listings: ListingRef[]; neighbourhoods: NeighbourhoodRef[]; eventTitles: string[]; images: ImagePool; count: number }): Promise<number[]> {
  const catIds = await insertReturningIds(db, 'video_categories', VIDEO_CATEGORIES.map((c) => ({ slug: c.slug, name: c.name })));
  const slugs = new SlugRegistry();
  const places = opts.listings.filter((l) => l.type !== 'food-shops');
  const rows = Array.from({ length: opts.count }, (_, i) => {
    const r = opts.rng.fork(`video:${i}`);
    const ci = i % VIDEO_CATEGORIES.length;
    const cat = VIDEO_CATEGORIES[ci];
    const place = places.length ? r.pick(places).name : 'a local favourite';
    const hood = r.pick(opts.neighbourhoods).name;
    const event = opts.eventTitles.length ? r.pick(opts.eventTitles) : 'a Toronto festival';
    const title = r.pick(cat.titles).replace('{place}', place).replace('{hood}', hood).replace('{event}', event).slice(0, 255);
    return {
      category_id: catIds[ci],
      title,
      slug: slugs.take(slugify(title)),
      description: `${title}. A short film from our video team${cat.slug === 'neighbourhoods' || cat.slug === 'culture' ? ` about ${hood}` : ''}.`,
      youtube_code: youtubeCode(r),
      image_key: r.pick(opts.images.videos.concat(opts.images[cat.slug] ?? opts.images.neighbourhoods)),
      duration_seconds: r.int(45, 900),
      date_published: new Date(opts.now.getTime() - Math.floor(Math.pow(r.float(), 1.5) * 5 * 365 * 86_400_000)),
    };
  });
  return insertReturningIds(db, 'videos', rows);
}
