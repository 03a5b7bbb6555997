import type { Knex } from 'knex';
import type { AppContext } from '../../server/context';
import { Rng } from './random';
import { phaseTimer, type SeedProgress } from './phases';
import { isSeeded } from './reset';
import { seedNeighbourhoods } from './neighbourhoods';
import { seedSubwayStops } from './stations';
import { seedListingTaxonomy, seedListings } from './listings';
import { DEMO_PASSWORD, seedMembers, STAFF_EMAIL, STAFF_PASSWORD } from './members';
import { recomputeListingStats, seedListingEngagement } from './engagement';
import { seedArticles, seedArticleTypes } from './articles';
import { seedCannabisArticles } from './cannabis';
import { seedBestOfLists } from './best-of';
import { seedBestOfHistory } from './best-of-history';
import { cityEventDrafts, generatedEventDrafts, insertEvents } from './events';
import { seedContests } from './contests';
import { seedVideos } from './videos';
import { seedBookmarks } from './saves';
import { seedListingPhotos } from './photos';
import { seedPatioArticles } from './patio-articles';
import { seedPhotoChallenges } from './photo-challenges';
import { seedAccessibility } from './accessibility';
import { generatePlaceholderImages } from './images';
import { SlugRegistry } from './batch';

// The demo city: real Toronto places and events, generated content around them, all
// deterministic from one seed (same seed and same date, same rows).

export const DEFAULT_SEED = 2004;

export interface DemoOptions {
  seed?: number;
  /** The date the demo is built around (events in the next 60 days, "recent" articles). */
  now?: Date;
  members?: number;
  articlesPerType?: number;
  /** Import only the first N DineSafe establishments (tests); all of them by default. */
  listingLimit?: number;
  /** Prints a line as each phase starts (npm start). */
  progress?: SeedProgress;
}

/** How many phases seedDemo runs, for the [n/total] progress lines (a test keeps it true). */
export const DEMO_PHASES = 22;

export interface DemoSummary {
  neighbourhoods: number;
  stations: number;
  listings: number;
  members: number;
  ratings: number;
  favourites: number;
  articles: number;
  bestOfLists: number;
  events: number;
  contests: number;
  videos: number;
  photos: number;
  photoChallenges: number;
  /** One demo member's email, for the sign-in hint. */
  exampleMember: string;
  timings: Array<{ phase: string; ms: number }>;
}

export async function seedDemo(ctx: AppContext, opts: DemoOptions = {}): Promise<DemoSummary> {
  const rng = new Rng(opts.seed ?? DEFAULT_SEED);
  const now = opts.now ?? ctx.now();
  const tz = ctx.config.city.timeZone;
  const startYear = ctx.config.city.startYear;
  const { run, timings } = phaseTimer(ctx.logger, opts.progress && { report: opts.progress, total: DEMO_PHASES });
  const t0 = Date.now();

  const images = await run('placeholder images', () => generatePlaceholderImages(ctx.storage, rng.fork('images')));
  // One transaction: much faster on PGlite than a commit per statement, and a failed seed
  // leaves the database as it was.
  const summary = await ctx.db.transaction(async (db: Knex) => {
    const neighbourhoods = await run('neighbourhoods', () => seedNeighbourhoods(db, { images: images.neighbourhoods }));
    const stations = await run('subway stops', () => seedSubwayStops(db));
    const taxonomy = await run('listing types', () => seedListingTaxonomy(db));
    const listings = await run('listings', () => seedListings(db, { rng: rng.fork('listings'), now, timeZone: tz, taxonomy, neighbourhoods, stations, images, limit: opts.listingLimit }));
    const { members, staff } = await run('members', () => seedMembers(db, { rng: rng.fork('members'), now, count: opts.members ?? 300 }));
    const engagement = await run('ratings, favourites, to-dos', () => seedListingEngagement(db, { rng: rng.fork('engagement'), now, listings, members }));
    await run('listing stats', () => recomputeListingStats(db, now));
    await run('accessibility reports', () => seedAccessibility(db, { rng: rng.fork('accessibility'), now, listings, members, staffId: staff.id }));
    const articleTypeIds = await run('article types', () => seedArticleTypes(db));
    const cityDrafts = cityEventDrafts({ rng: rng.fork('city-events'), now, timeZone: tz, images });
    const eventTitles = cityDrafts.map((d) => String(d.row.title));
    const slugs = new SlugRegistry();
    const world = { neighbourhoods, stations, listings, eventTitles, subTypeNames: taxonomy.subTypeNames };
    const articles = await run('articles', () =>
      seedArticles(db, { rng: rng.fork('articles'), now, timeZone: tz, startYear, typeIds: articleTypeIds, world, images, slugs, perType: opts.articlesPerType ?? 82 }),
    );
    const cannabis = await run('cannabis articles', () => seedCannabisArticles(db, { rng: rng.fork('cannabis'), now, timeZone: tz, images, slugs }));
    const hoodNames = new Map(neighbourhoods.map((n) => [n.id, n.name]));
    const bestOf = await run('best of lists', () =>
      seedBestOfLists(db, { rng: rng.fork('best-of'), now, timeZone: tz, startYear, listings, taxonomy, articleTypeIds, images, slugs, hoodNames }),
    );
    await run('best of criteria, visits and change logs', () => seedBestOfHistory(db, { rng: rng.fork('best-of-history'), now, staff }));
    const patioArticles = await run('patio stories', () =>
      seedPatioArticles(db, { rng: rng.fork('patio-articles'), now, timeZone: tz, typeIds: articleTypeIds, listings, hoodNames, images, slugs }),
    );
    const events = await run('events and occurrences', async () => {
      const generated = generatedEventDrafts({ rng: rng.fork('generated-events'), now, timeZone: tz, listings, members, images });
      return insertEvents(db, [...cityDrafts, ...generated], tz);
    });
    const contests = await run('contests', () => seedContests(db, { rng: rng.fork('contests'), now, listings, eventTitles, images, count: 25, members }));
    const videoIds = await run('videos', () => seedVideos(db, { rng: rng.fork('videos'), now, listings, neighbourhoods, eventTitles, images, count: 150 }));
    const allArticles = [...articles, ...bestOf.articles, ...patioArticles];
    await run('bookmarks', () => seedBookmarks(db, { rng: rng.fork('bookmarks'), now, members, articles: allArticles, videoIds, events }));
    const photos = await run('listing photos', () => seedListingPhotos(db, { rng: rng.fork('photos'), now, listings, members, images, listingCount: 300 }));
    const challenges = await run('photo challenges', () => seedPhotoChallenges(db, { rng: rng.fork('photo-challenges'), now, members, images }));
    return {
      exampleMember: members[0]?.email ?? '',
      neighbourhoods: neighbourhoods.length,
      stations: stations.length,
      listings: listings.length,
      members: members.length + 1,
      ratings: engagement.ratings,
      favourites: engagement.favourites,
      articles: allArticles.length + cannabis.length,
      bestOfLists: bestOf.lists,
      events: events.length,
      contests,
      videos: videoIds.length,
      photos,
      photoChallenges: challenges.challenges,
    };
  });
  // PGlite has no autovacuum: without statistics, search queries fall back to sequential scans.
  await run('vacuum analyze', () => ctx.db.raw('VACUUM ANALYZE'));
  ctx.logger.info(
    { ms: Date.now() - t0, ...summary },
    `seed: demo city ready in ${((Date.now() - t0) / 1000).toFixed(1)} s. Demo members: any seeded email (e.g. ${summary.exampleMember}) with password "${DEMO_PASSWORD}"; staff: ${STAFF_EMAIL} / "${STAFF_PASSWORD}"`,
  );
  return { ...summary, timings };
}

/** Seeds the demo city into an empty database (npm start calls this, with progress lines). */
export async function seedDemoIfEmpty(ctx: AppContext, progress?: SeedProgress): Promise<void> {
  if (await isSeeded(ctx.db)) return;
  ctx.logger.info('empty database: seeding the demo city');
  progress?.('First start: seeding the demo city into an empty database (once; about a minute, two on a busy 2-core machine).');
  const summary = await seedDemo(ctx, { progress });
  const seconds = summary.timings.reduce((s, t) => s + t.ms, 0) / 1000;
  progress?.(`Demo city seeded in ${seconds.toFixed(0)} s: ${summary.listings} places, ${summary.articles} articles, ${summary.events} events, ${summary.members} members.`);
  progress?.(`Sign in as ${summary.exampleMember} / ${DEMO_PASSWORD} (any seeded member), or staff ${STAFF_EMAIL} / ${STAFF_PASSWORD}.`);
}
