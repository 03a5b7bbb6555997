import type { Knex } from 'knex';
import moment from 'moment-timezone';
import { ARTICLE_TYPES } from '../../shared/constants';
import { slugify } from '../../shared/format/text';
import { storyDocFromParagraphs } from '../../shared/newsroom';
import { articlePath } from '../../server/apps/articles/serialize';
import { renderStoryDoc } from '../../server/apps/articles/story-render';
import { insertBatches, insertReturningIds, SlugRegistry } from './batch';
import { readLibraries, readNeighbourhoodProfiles } from './data-files';
import { AUTHORS, GENERIC_CLOSERS, ORDINALS, SEASONS, TEMPLATES } from './article-templates';
import type { ImagePool } from './images';
import type { ListingRef } from './listings';
import type { NeighbourhoodRef } from './neighbourhoods';
import type { Rng } from './random';
import type { StationRef } from './stations';

export async function seedArticleTypes(db: Knex): Promise<Map<string, number>> {
  const ids = await insertReturningIds(db, 'article_types', ARTICLE_TYPES.map((t, i) => ({ name: t.name, slug: t.slug, position: i })));
  return new Map(ARTICLE_TYPES.map((t, i) => [t.slug, ids[i]]));
}

export { articlePath };

/** Most articles from the last year, the rest spread back to the site's first year. */
export function publicationDate(rng: Rng, now: Date, startYear: number, recentShare = 0.65): Date {
  const nowMs = now.getTime();
  const yearMs = 365 * 86_400_000;
  if (rng.chance(recentShare)) return new Date(nowMs - Math.floor(rng.float() * yearMs));
  const start = Date.UTC(startYear, 0, 1, 12);
  return new Date(start + Math.floor(rng.float() * Math.max(0, nowMs - yearMs - start)));
}

/** What templates can talk about: the real city. */
export interface ArticleWorld {
  neighbourhoods: NeighbourhoodRef[];
  stations: StationRef[];
  listings: ListingRef[];
  eventTitles: string[];
  subTypeNames: Map<string, string>;
}

const streetOf = (address: string) => address.split(',')[0].replace(/^[\d\-A-Za-z]*\d[\dA-Za-z-]*\s+/, '').trim() || address;

/**
 * Fills `{slot}` placeholders from a context drawn once per article, so one story stays about
 * one place. The lookups are built once; each article draws from its own random stream.
 */
export function slotFiller(world: ArticleWorld, now: Date) {
  const profiles = new Map(readNeighbourhoodProfiles().map((p) => [p.neighbourhood_id, p]));
  const libraries = readLibraries().map((l) => l.branch_name);
  const eating = world.listings.filter((l) => l.type !== 'food-shops');
  const byHood = new Map<number, ListingRef[]>();
  for (const l of eating) if (l.neighbourhoodId != null) (byHood.get(l.neighbourhoodId) ?? byHood.set(l.neighbourhoodId, []).get(l.neighbourhoodId)!).push(l);
  const stationsByHood = new Map<number, StationRef[]>();
  for (const s of world.stations) if (s.neighbourhood_id != null) (stationsByHood.get(s.neighbourhood_id) ?? stationsByHood.set(s.neighbourhood_id, []).get(s.neighbourhood_id)!).push(s);
  return (rng: Rng, focus?: { hood?: NeighbourhoodRef; place?: ListingRef }) => {
    const hood = focus?.hood ?? rng.pick(world.neighbourhoods);
    const hood2 = rng.pick(world.neighbourhoods.filter((n) => n.id !== hood.id));
    const local = byHood.get(hood.id) ?? [];
    const place = focus?.place ?? (local.length ? rng.pick(local) : eating.length ? rng.pick(eating) : undefined);
    const place2 = local.length > 1 ? rng.pick(local.filter((l) => l !== place)) : eating.length ? rng.pick(eating) : undefined;
    const hoodStations = stationsByHood.get(hood.id) ?? [];
    const station = hoodStations.length ? rng.pick(hoodStations) : rng.pick(world.stations);
    const station2 = rng.pick(world.stations.filter((s) => s !== station));
    const census = profiles.get(hood.id)?.indicators ?? {};
    const cuisine = place?.subType ? (world.subTypeNames.get(`${place.type}/${place.subType}`) ?? 'comfort food') : rng.pick(['brunch', 'pizza', 'ramen', 'dumplings', 'tacos', 'comfort food']);
    const values: Record<string, string> = {
      hood: hood.name,
      hood2: hood2.name,
      station: station.name,
      station2: station2.name,
      street: place ? streetOf(place.address) : rng.pick(['Queen St W', 'Bloor St W', 'Yonge St', 'Danforth Ave', 'King St E', 'Dundas St W']),
      place: place?.name ?? 'a local favourite',
      place2: place2?.name ?? 'a nearby cafe',
      address: place?.address ?? '',
      cuisine: cuisine.replace(/ & .*/, '').toLowerCase().replace(/^bbq/, 'BBQ'),
      library: rng.pick(libraries),
      event: world.eventTitles.length ? rng.pick(world.eventTitles) : 'the Toronto Christmas Market',
      n: String(rng.int(3, 25)),
      nth: rng.pick(ORDINALS),
      money: String(rng.int(2, 30)),
      price: rng.chance(0.5) ? 'free' : `$${rng.int(10, 45)}`,
      season: rng.pick(SEASONS),
      year: String(now.getUTCFullYear() + rng.int(0, 1)),
      month: moment(now).format('MMMM'),
      weekday: rng.pick(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']),
      pop: census.population_2021 != null ? Math.round(census.population_2021).toLocaleString('en-CA') : 'thousands of',
      renters: census.renter_households_pct != null ? String(census.renter_households_pct) : 'about half',
      income: census.median_household_income_2020_cad != null ? Math.round(census.median_household_income_2020_cad).toLocaleString('en-CA') : '80,000',
    };
    const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? k);
    return { fill, hood, place, local };
  };
}

function capitaliseFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export interface ArticleRef {
  id: number;
  typeSlug: string;
  name: string;
  datePublished: Date;
}

export interface ArticleDraft {
  typeSlug: string;
  name: string;
  excerpt: string;
  body: string;
  authorName: string;
  datePublished: Date;
  imageKey: string | null;
  isFeatured: boolean;
  slides?: Array<{ title: string; caption: string; image_key: string | null; listing_id: number | null }>;
}

/** Inserts drafts with unique slugs and paths; answers their ids in order. */
export async function insertArticles(db: Knex, drafts: ArticleDraft[], typeIds: Map<string, number>, slugs: SlugRegistry, timeZone: string): Promise<ArticleRef[]> {
  const rows = drafts.map((d) => {
    const slug = slugs.take(slugify(d.name));
    return {
      type_id: typeIds.get(d.typeSlug)!,
      name: d.name.slice(0, 255),
      slug,
      path: articlePath(d.typeSlug, d.datePublished, slug, timeZone),
      excerpt: d.excerpt,
      body: d.body,
      // The newsroom's document and its HTML, as a story written in the editor has them.
      doc: JSON.stringify(storyDocFromParagraphs(d.body)),
      body_html: renderStoryDoc(storyDocFromParagraphs(d.body)).html,
      image_alt: d.imageKey ? d.name.slice(0, 400) : '',
      author_name: d.authorName,
      image_key: d.imageKey,
      image_credit: d.imageKey ? 'Demo illustration' : '',
      is_slideshow: Boolean(d.slides?.length),
      is_featured: d.isFeatured,
      status: 'published',
      date_published: d.datePublished,
      date_created: d.datePublished,
      date_updated: d.datePublished,
    };
  });
  const ids = await insertReturningIds(db, 'articles', rows, 500);
  const slides = drafts.flatMap((d, i) => (d.slides ?? []).map((s, position) => ({ article_id: ids[i], position, ...s })));
  await insertBatches(db, 'article_slides', slides, 1000);
  return drafts.map((d, i) => ({ id: ids[i], typeSlug: d.typeSlug, name: rows[i].name, datePublished: d.datePublished }));
}

export interface SeedArticlesOptions {
  rng: Rng;
  now: Date;
  timeZone: string;
  startYear: number;
  typeIds: Map<string, number>;
  world: ArticleWorld;
  images: ImagePool;
  slugs: SlugRegistry;
  /** Articles per news type (Best Of articles come with their lists). */
  perType: number;
}

export async function seedArticles(db: Knex, opts: SeedArticlesOptions): Promise<ArticleRef[]> {
  const drafts: ArticleDraft[] = [];
  const nowMs = opts.now.getTime();
  const context = slotFiller(opts.world, opts.now);
  const eating = opts.world.listings.filter((l) => l.type !== 'food-shops');
  for (const [typeSlug, templates] of Object.entries(TEMPLATES)) {
    const usedHeadlines = new Set<string>();
    for (let i = 0; i < opts.perType; i++) {
      const r = opts.rng.fork(`article:${typeSlug}:${i}`);
      // Redraw the context until the headline is new: templates without a place in them
      // would otherwise repeat word for word.
      let drawn = context(r);
      let name = capitaliseFirst(drawn.fill(r.pick(templates.headlines)));
      for (let tries = 0; usedHeadlines.has(name) && tries < 12; tries++) {
        drawn = context(r);
        name = capitaliseFirst(drawn.fill(r.pick(templates.headlines)));
      }
      usedHeadlines.add(name);
      const { fill, local } = drawn;
      const intro = fill(r.pick(templates.intros));
      const middles = r.sample(templates.middles, r.int(2, 4)).map(fill);
      const body = [intro, ...middles, r.pick(GENERIC_CLOSERS)].join('\n\n');
      const published = publicationDate(r, opts.now, opts.startYear);
      const recent = nowMs - published.getTime() < 45 * 86_400_000;
      const wantsSlides = (typeSlug === 'food' || typeSlug === 'travel' || typeSlug === 'culture') && r.chance(0.18);
      const pool = opts.images[typeSlug] ?? opts.images.news;
      let slides: ArticleDraft['slides'];
      if (wantsSlides) {
        const picks = r.sample(local.length >= 5 ? local : eating, r.int(5, 8));
        slides = picks.map((l) => ({
          title: l.name,
          caption: `${l.name} at ${l.address}. ${fill(r.pick(templates.middles))}`,
          image_key: r.pick(opts.images[l.type] ?? pool),
          listing_id: l.id,
        }));
      }
      drafts.push({
        typeSlug,
        name,
        excerpt: intro,
        body,
        authorName: r.pick(AUTHORS),
        datePublished: published,
        imageKey: r.pick(pool),
        isFeatured: r.chance(recent ? 0.3 : 0.03),
        slides,
      });
    }
  }
  return insertArticles(db, drafts, opts.typeIds, opts.slugs, opts.timeZone);
}
