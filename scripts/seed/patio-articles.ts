import type { Knex } from 'knex';
import moment from 'moment-timezone';
import type { SlugRegistry } from './batch';
import type { ImagePool } from './images';
import type { ListingRef } from './listings';
import type { Rng } from './random';
import { insertArticles, type ArticleDraft, type ArticleRef } from './articles';

// Patio stories for the Patio Guide's season list (server/apps/patios): a few each summer for
// the last three patio seasons, about real listings that have a patio in the seed. Their
// headlines say "patio", which is what the guide looks for.

const HEADLINES = [
  'The {count} best new patios in Toronto this summer',
  '{place} opens a rooftop patio in {hood}',
  'Toronto patio season is officially here: where to go first',
  'These {hood} patios are the best spots to catch the sun',
  'Dog-friendly patios in Toronto where your pup is welcome',
  '{place} just expanded its patio and it seats twice as many people',
  'Hidden backyard patios in Toronto you probably walk right past',
  'The CaféTO curb lane patios are back on {street}',
  'Toronto patios with a view of the lake',
  'Heated patios in Toronto that stay open into the fall',
];

const PARAGRAPHS = [
  'With the first properly warm weekend behind us, the city’s patios are filling up fast, and some of the best seats this year are brand new.',
  '{place} has added a patio out back, with string lights, a dozen tables and a short menu of snacks built for sharing.',
  'Walk-ins only on weekends, so arrive before 6 p.m. if you want a table in the sun; the bar side turns over quickly after the dinner rush.',
  'Over in {hood}, the stretch along {street} now has more curb-lane seating than ever, thanks to the city’s CaféTO program.',
  'The kitchen keeps the full menu going outside until 11 p.m., and the patio is heated on cool evenings well into October.',
  'Regulars say the secret is the corner table by the planters: shaded at lunch, golden at sunset.',
  'Dogs are welcome on the patio, and staff keep a water bowl by the gate.',
  'Patio season in Toronto is short, so make the most of it: here is where we are sitting outside this week.',
];

const STREETS = ['Queen Street West', 'Ossington Avenue', 'Danforth Avenue', 'College Street', 'Roncesvalles Avenue', 'King Street East', 'Dundas Street West'];

export async function seedPatioArticles(
  db: Knex,
  opts: { rng: Rng; now: Date; timeZone: string; typeIds: Map<string, number>; listings: ListingRef[]; hoodNames: Map<number, string>; images: ImagePool; slugs: SlugRegistry; perSeason?: number },
): Promise<ArticleRef[]> {
  const patios = opts.listings.filter((l) => l.features.has('patio'));
  if (!patios.length || !opts.typeIds.has('food')) return [];
  const perSeason = opts.perSeason ?? 4;
  const now = moment.tz(opts.now, opts.timeZone);
  // The season `now` is in (April to March), then the two before it.
  const latestSeason = now.month() >= 3 ? now.year() : now.year() - 1;
  const drafts: ArticleDraft[] = [];
  for (let back = 0; back < 3; back++) {
    const year = latestSeason - back;
    for (let i = 0; i < perSeason; i++) {
      const r = opts.rng.fork(`patio:${year}:${i}`);
      const place = r.pick(patios);
      const hood = (place.neighbourhoodId !== null && opts.hoodNames.get(place.neighbourhoodId)) || 'the west end';
      const fill = (s: string) => s.replace(/\{place\}/g, place.name).replace(/\{hood\}/g, hood).replace(/\{street\}/g, r.pick(STREETS)).replace(/\{count\}/g, String(r.int(8, 20)));
      const headline = fill(HEADLINES[(back * perSeason + i) % HEADLINES.length]);
      // Late April to early October, never after now.
      let published = moment.tz({ year, month: 3, day: 20, hour: 9 }, opts.timeZone).add(r.int(0, 165), 'days').add(r.int(0, 600), 'minutes');
      if (published.isAfter(now)) published = now.clone().subtract(r.int(1, 20), 'days');
      const body = r.sample(PARAGRAPHS, r.int(3, 5)).map(fill).join('\n\n');
      const pool = opts.images[place.type] ?? opts.images.food ?? [];
      drafts.push({
        typeSlug: 'food',
        name: headline,
        excerpt: fill(PARAGRAPHS[0]),
        body,
        authorName: 'Gabriela Santos',
        datePublished: published.toDate(),
        imageKey: pool.length ? r.pick(pool) : null,
        isFeatured: back === 0 && i === 0,
      });
    }
  }
  return insertArticles(db, drafts, opts.typeIds, opts.slugs, opts.timeZone);
}
