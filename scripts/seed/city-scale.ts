import type { Knex } from 'knex';
import type { AppContext } from '../../server/context';
import { ARTICLE_TYPES } from '../../shared/constants';
import { FIRST_NAMES, LAST_NAMES } from './members';
import { phaseTimer } from './phases';
import { recomputeListingStats } from './engagement';

// `npm run seed -- --scale city`: on top of the demo city, bulk rows for performance work, at
// least the sizes the issue asks for (`--factor 2` doubles them). Everything is INSERT ...
// SELECT over generate_series in the database: one statement makes tens of thousands of rows
// without a round trip per batch (COPY is not available through knex). The generated rows reuse the real neighbourhoods,
// listings and venues, so queries see realistic joins and text.
//
// Determinism: values come from arithmetic on the series index (multiplicative hashing), not
// from random(), so two runs produce the same rows.

export const CITY_TARGETS = {
  members: 100_000,
  listings: 20_000,
  articles: 100_000,
  events: 10_000,
  /** favourites + ratings + article/video/event bookmarks together */
  saves: 1_000_000,
};

/**
 * The city's sizes times `factor` (`--factor 2`: the doubled city of issue 41, target 6). Factor
 * 1 is CITY_TARGETS itself, so the default city seed keeps its rows.
 */
export function cityTargets(factor = 1): typeof CITY_TARGETS {
  if (!(Number.isFinite(factor) && factor > 0)) throw new Error(`factor must be a number above 0, got ${factor}`);
  const scaled = Object.fromEntries(Object.entries(CITY_TARGETS).map(([k, v]) => [k, Math.round(v * factor)]));
  return scaled as typeof CITY_TARGETS;
}

// Per city member: distinct objects each, so the unique (profile, object) constraints hold.
const PER_MEMBER = { ratings: 4, favourites: 3, articleBookmarks: 2, eventBookmarks: 1 };

const HEADLINES = [
  'What is new in %s this week',
  'The %s restaurants everyone is talking about',
  'A local guide to %s',
  'City council approves a new plan for %s',
  'Inside the condo boom in %s',
  'Where to get brunch in %s',
  'The best patios in %s right now',
  'A new park is coming to %s',
  'Rents in %s keep climbing',
  'Things to do in %s this weekend',
  'Why people are moving to %s',
  'A walking tour of %s',
  'The TTC is changing service near %s',
  'A beloved shop in %s is closing its doors',
  'New bike lanes planned for %s',
  'The hidden history of %s',
];
// Every sentence goes through format(…, the neighbourhood's name), wherever it stands in the text.
const SENTENCES = [
  'Residents of %s have been talking about it for months.',
  'The neighbourhood has changed a great deal over the past decade.',
  'Local businesses say the change is welcome, though some worry about the details.',
  'The City will hold a public meeting before work begins.',
  'It is a short walk from the nearest subway station.',
  'Regulars say it is one of the best reasons to visit %s.',
  'More details are expected later this year.',
  'We will update this story as we learn more.',
];
const EVENT_TITLES = ['Community Market', 'Jazz Night', 'Book Launch', 'Art Walk', 'Comedy Showcase', 'Family Fun Day', 'Film Screening', 'Yoga in the Park', 'Food Tasting', 'Trivia Night'];
const CATEGORIES = ['Music', 'Arts/Exhibits', 'Family/Children', 'Food/Culinary', 'Comedy', 'Film', 'Literary', 'Sports'];

async function count(db: Knex, table: string): Promise<number> {
  const row = await db(table).count<{ n: number }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

async function maxId(db: Knex, table: string): Promise<number> {
  const row = await db(table).max<{ m: number | null }[]>({ m: 'id' }).first();
  return Number(row?.m ?? 0);
}

/**
 * Dense 1..N indexes over the rows of a table, so generated rows can pick "the k-th listing"
 * by arithmetic. Plain (unlogged) tables rather than temporary ones: knex may run the next
 * statement on another pooled connection.
 */
async function indexTable(db: Knex, name: string, source: string, where = 'TRUE'): Promise<number> {
  await db.raw(`DROP TABLE IF EXISTS ??`, [name]);
  await db.raw(`CREATE UNLOGGED TABLE ?? AS SELECT id, row_number() OVER (ORDER BY id)::int AS idx FROM ?? WHERE ${where}`, [name, source]);
  await db.raw(`CREATE UNIQUE INDEX ON ?? (idx)`, [name]);
  return count(db, name);
}

export interface CityScaleOptions {
  seed: number;
  now?: Date;
  /** Sizes to reach (CITY_TARGETS by default; cityTargets(2) for the doubled city). */
  targets?: Pick<typeof CITY_TARGETS, 'members' | 'listings' | 'articles' | 'events'>;
}

export async function seedCityScale(ctx: AppContext, opts: CityScaleOptions): Promise<Record<string, number>> {
  const db = ctx.db;
  const targets = opts.targets ?? CITY_TARGETS;
  const now = opts.now ?? ctx.now();
  const tz = ctx.config.city.timeZone;
  const { run, timings } = phaseTimer(ctx.logger);
  const t0 = Date.now();
  const s = opts.seed % 9973; // folded into the hashing so --seed varies the bulk rows too
  const slugSql = (expr: string) => `trim(both '-' from regexp_replace(lower(${expr}), '[^a-z0-9]+', '-', 'g'))`;

  await run('city: members', async () => {
    const missing = targets.members - (await count(db, 'profiles'));
    if (missing <= 0) return;
    // The demo's hash (password "toronto-demo-2004") is reused: hashing 100,000 passwords would take an hour.
    const hash = (await db('profiles').where({ is_staff: false }).whereNotNull('password_hash').first('password_hash'))?.password_hash ?? null;
    await db.raw(
      `INSERT INTO profiles (email, password_hash, full_name, first_name, last_name, date_joined, settings_receive_newsletter_news, settings_receive_newsletter_events)
       SELECT lower(f || '.' || l || '.city' || g || '@example.com'), ?, f || ' ' || l, f, l,
              ?::timestamptz - make_interval(secs => ((g * 7919 + ?) % (8 * 365 * 86400))::double precision),
              g % 3 = 0, g % 5 = 0
         FROM generate_series(1, ?::int) g
        CROSS JOIN LATERAL (SELECT (?::text[])[1 + (g * 31 + ?) % ?::int] AS f, (?::text[])[1 + (g * 17 + g / 7) % ?::int] AS l) n`,
      [hash, now, s, missing, [...FIRST_NAMES], s, FIRST_NAMES.length, [...LAST_NAMES], LAST_NAMES.length],
    );
  });

  await run('city: listings', async () => {
    const have = await count(db, 'listings');
    const missing = targets.listings - have;
    if (missing <= 0) return;
    await indexTable(db, 'seed_city_listings', 'listings');
    // Second locations of real listings: same type and neighbourhood, a few hundred metres away.
    await db.raw(
      `INSERT INTO listings (name, slug, type_id, sub_type_id, neighbourhood_id, nearest_subway_stop_id, nearest_subway_stop_distance_m,
                             address, phone, latitude, longitude, description, hours, hours_week, hours_holiday, hours_closed, date_published, date_created)
       SELECT l.name || ' ' || (ARRAY['Express', 'Annex', 'Uptown', 'Downtown', 'East', 'West', 'North', 'Midtown'])[1 + g % 8],
              l.slug || '-' || g, l.type_id, l.sub_type_id, l.neighbourhood_id, l.nearest_subway_stop_id, l.nearest_subway_stop_distance_m,
              l.address, l.phone, l.latitude + ((g * 37) % 41 - 20) * 0.0001, l.longitude + ((g * 53) % 41 - 20) * 0.0001,
              l.description, l.hours, l.hours_week, l.hours_holiday, l.hours_closed,
              ?::timestamptz - make_interval(days => (g * 13 + ?) % 3650), ?::timestamptz - make_interval(days => (g * 13 + ?) % 3650)
         FROM generate_series(1, ?::int) g
         JOIN seed_city_listings x ON x.idx = 1 + (g * 7919) % ?::int
         JOIN listings l ON l.id = x.id`,
      [now, s, now, s, missing, have],
    );
    await db.raw(
      `INSERT INTO listing_features (listing_id, feature_id)
       SELECT l.id, f.id FROM listings l JOIN features f ON (l.id + f.id * 7) % 5 = 0 WHERE l.dinesafe_establishment_id IS NULL
       ON CONFLICT DO NOTHING`,
    );
  });

  await run('city: articles', async () => {
    const have = await count(db, 'articles');
    const missing = targets.articles - have;
    if (missing <= 0) return;
    await indexTable(db, 'seed_city_hoods', 'neighbourhoods');
    const hoods = await count(db, 'seed_city_hoods');
    // Best Of articles belong to lists; the bulk rows are news-type articles only.
    const types = await db('article_types').whereIn('slug', ARTICLE_TYPES.filter((t) => t.slug !== 'best-of').map((t) => t.slug)).orderBy('position').select('id', 'slug');
    const images = (await db('articles').whereNotNull('image_key').distinct('image_key')).map((r) => r.image_key as string);
    const start = Date.UTC(ctx.config.city.startYear, 0, 1) / 1000;
    const span = Math.max(1, Math.floor(now.getTime() / 1000 - start));
    // In chunks, so progress shows and no single statement holds 100,000 rows of text.
    const chunk = 25_000;
    for (let from = 1; from <= missing; from += chunk) {
      const to = Math.min(missing, from + chunk - 1);
      await db.raw(
        `INSERT INTO articles (type_id, name, slug, path, excerpt, body, author_name, image_key, is_featured, status, date_published, date_created, date_updated)
         SELECT t.id, h.name, h.slug, '/' || t.slug || '/' || to_char(d.p AT TIME ZONE ?, 'YYYY/MM') || '/' || h.slug || '/',
                e.excerpt, e.excerpt || E'\\n\\n' || e.more, (ARRAY['Maya Fernandes','Daniel Okafor','Priya Raman','Liam Tremblay','Jin Park','Sofia Rossi','Omar Haddad','Grace Nguyen'])[1 + g % 8],
                (?::text[])[1 + g % ?::int], g % 97 = 0, 'published', d.p, d.p, d.p
           FROM generate_series(?::int, ?::int) g
           JOIN seed_city_hoods n ON n.idx = 1 + (g * 31 + ?) % ?::int
           JOIN (SELECT id, slug, row_number() OVER (ORDER BY position)::int - 1 AS i FROM article_types WHERE slug = ANY(?::text[])) t ON t.i = g % ?::int
           JOIN neighbourhoods hood ON hood.id = n.id
          CROSS JOIN LATERAL (SELECT ?::timestamptz - make_interval(secs => (power(((g::bigint * 2654435761 + ?) % 1000003) / 1000003.0, 2) * ?)::double precision) AS p) d
          CROSS JOIN LATERAL (SELECT format((?::text[])[1 + (g * 7) % ?::int], hood.name) AS name) hn
          CROSS JOIN LATERAL (SELECT hn.name, ${slugSql('hn.name')} || '-' || g AS slug) h
          CROSS JOIN LATERAL (SELECT format((?::text[])[1 + g % ?::int], hood.name) || ' ' || format((?::text[])[1 + (g / 3) % ?::int], hood.name) AS excerpt,
                                     format((?::text[])[1 + (g / 5) % ?::int], hood.name) || ' ' || format((?::text[])[1 + (g / 11) % ?::int], hood.name) || ' ' || hood.blurb AS more) e`,
        [
          tz, (images.length ? images : [null]) as string[], Math.max(1, images.length), from, to, s, hoods, types.map((t) => t.slug), types.length,
          now, s, span, HEADLINES, HEADLINES.length,
          SENTENCES, SENTENCES.length, SENTENCES, SENTENCES.length, SENTENCES, SENTENCES.length, SENTENCES, SENTENCES.length,
        ],
      );
      ctx.logger.info({ articles: to }, 'seed: city articles');
    }
  });

  await run('city: events and occurrences', async () => {
    const have = await count(db, 'events');
    const missing = targets.events - have;
    if (missing <= 0) return;
    const before = await maxId(db, 'events');
    await indexTable(db, 'seed_city_venues', 'listings', "type_id IN (SELECT id FROM listing_types WHERE slug IN ('bars', 'restaurants', 'cafes'))");
    const venues = await count(db, 'seed_city_venues');
    const images = (await db('events').whereNotNull('image_key').distinct('image_key')).map((r) => r.image_key as string);
    // Four in five are single days, one in five a day range of 2-7 days; from a year ago to a year ahead.
    await db.raw(
      `INSERT INTO events (slug, title, description, venue_name, listing_id, address, latitude, longitude, schedule_type, start_date, end_date,
                           start_time, end_time, categories, is_free, price_cad, organizer_name, image_key, source, status, date_created, date_updated)
       SELECT ${slugSql('x.title')}, x.title, x.title || ' at ' || l.name || ', ' || l.address || '. All welcome.', l.name, l.id, l.address, l.latitude, l.longitude,
              CASE WHEN g % 5 = 0 THEN 'day_range' ELSE 'single_day' END, d.day, CASE WHEN g % 5 = 0 THEN d.day + (2 + g % 6) END,
              make_time(10 + g % 11, (g % 2) * 30, 0), make_time(10 + g % 11 + 2, (g % 2) * 30, 0),
              ARRAY[(?::text[])[1 + g % ?::int]], g % 3 = 0, CASE WHEN g % 3 = 0 THEN NULL ELSE 5 + g % 40 END, l.name,
              (?::text[])[1 + g % ?::int], 'editorial', 'approved', ?::timestamptz, ?::timestamptz
         FROM generate_series(1, ?::int) g
         JOIN seed_city_venues v ON v.idx = 1 + (g * 7919 + ?) % ?::int
         JOIN listings l ON l.id = v.id
        CROSS JOIN LATERAL (SELECT (?::text[])[1 + g % ?::int] || ' at ' || l.name AS title) x
        CROSS JOIN LATERAL (SELECT (?::timestamptz AT TIME ZONE ?)::date + ((g * 37) % 730 - 365) AS day) d`,
      [CATEGORIES, CATEGORIES.length, (images.length ? images : [null]) as string[], Math.max(1, images.length), now, now, missing, s, venues, EVENT_TITLES, EVENT_TITLES.length, now, tz],
    );
    // Occurrences in SQL, one per day, local wall-clock times converted in the city's zone
    // (the same rule as expandOccurrences).
    await db.raw(
      `INSERT INTO event_occurrences (event_id, local_date, starts_at, ends_at, all_day)
       SELECT e.id, day::date, (day::date + e.start_time) AT TIME ZONE ?, (day::date + e.end_time) AT TIME ZONE ?, false
         FROM events e CROSS JOIN LATERAL generate_series(e.start_date, coalesce(e.end_date, e.start_date), interval '1 day') day
        WHERE e.id > ?`,
      [tz, tz, before],
    );
  });

  await run('city: favourites, ratings, bookmarks', async () => {
    const firstCityMember = (await db('profiles').where('email', 'like', '%.city%@example.com').min<{ m: number }[]>({ m: 'id' }).first())?.m;
    if (!firstCityMember) return;
    await indexTable(db, 'seed_city_members', 'profiles', `id >= ${Number(firstCityMember)}`);
    const listings = await indexTable(db, 'seed_city_listings', 'listings');
    const articles = await indexTable(db, 'seed_city_articles', 'articles');
    const events = await indexTable(db, 'seed_city_events', 'events', "status = 'approved'");
    const videos = await indexTable(db, 'seed_city_videos', 'videos');
    // (m * a + k * b) mod N is distinct for k = 1..K when b is a prime not dividing N and K < N.
    const nowSql = `'${now.toISOString()}'::timestamptz`;
    const save = async (table: string, column: string, objects: string, n: number, k: number, extraColumns = '', extraValues = '') => {
      if (!n) return;
      await db.raw(
        `INSERT INTO ?? (profile_id, ??, date_created${extraColumns})
         SELECT m.id, o.id, ${nowSql} - make_interval(secs => ((m.idx::bigint * 7919 + k * 104729) % (365 * 86400))::double precision)${extraValues}
           FROM seed_city_members m CROSS JOIN generate_series(1, ?::int) k
           JOIN ?? o ON o.idx = 1 + (m.idx::bigint * 7919 + k * 104729 + ?) % ?::int
         ON CONFLICT DO NOTHING`,
        [table, column, k, objects, s, n],
      );
    };
    await save('ratings', 'listing_id', 'seed_city_listings', listings, PER_MEMBER.ratings, ', rating, date_updated', `, (ARRAY[1,2,3,3,4,4,4,5,5,5])[1 + ((m.idx * 31 + k * 7) % 10)]::smallint, ${nowSql}`);
    await save('favourites', 'listing_id', 'seed_city_listings', listings, PER_MEMBER.favourites);
    await save('article_bookmarks', 'article_id', 'seed_city_articles', articles, PER_MEMBER.articleBookmarks);
    await save('event_bookmarks', 'event_id', 'seed_city_events', events, PER_MEMBER.eventBookmarks);
    // Every other member also saved a video.
    if (videos) {
      await db.raw(
        `INSERT INTO video_bookmarks (profile_id, video_id, date_created)
         SELECT m.id, o.id, ?::timestamptz - make_interval(days => m.idx % 365)
           FROM seed_city_members m JOIN seed_city_videos o ON o.idx = 1 + (m.idx * 7 + ?) % ?::int
          WHERE m.idx % 2 = 0
         ON CONFLICT DO NOTHING`,
        [now, s, videos],
      );
    }
  });

  await run('city: listing stats', () => recomputeListingStats(db, now));
  await run('city: cleanup', async () => {
    for (const t of ['seed_city_listings', 'seed_city_hoods', 'seed_city_venues', 'seed_city_members', 'seed_city_articles', 'seed_city_events', 'seed_city_videos']) {
      await db.raw('DROP TABLE IF EXISTS ??', [t]);
    }
  });
  await run('city: vacuum analyze', () => db.raw('VACUUM ANALYZE'));

  const totals: Record<string, number> = {};
  for (const t of ['profiles', 'listings', 'articles', 'events', 'event_occurrences', 'favourites', 'ratings', 'article_bookmarks', 'video_bookmarks', 'event_bookmarks']) totals[t] = await count(db, t);
  totals.saves = totals.favourites + totals.ratings + totals.article_bookmarks + totals.video_bookmarks + totals.event_bookmarks;
  ctx.logger.info({ ms: Date.now() - t0, ...totals, timings }, `seed: city scale ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log('\nCity scale phases:', timings.map((t) => `${t.phase} ${(t.ms / 1000).toFixed(1)} s`).join('; '));
  console.log('City scale totals:', totals);
  return totals;
}
