import type { AppContext } from '../../context';
import type { ArticleRow } from '../articles/serialize';
import { toEventDTO } from '../events/serialize';
import { toContestDTO } from '../contests/serialize';
import type { ContestDTO, EventDTO } from '../../../shared/dto';
import { bestOfCard, type BestOfCard } from '../articles/view-models';
import { MemoryCache } from '../../cache/memory-cache';
import { changeTouches } from '../../cache/change-keys';
import { HOME_SECTIONS_TTL_MS } from '../../cache/lifetimes';
import { homeRows } from './queries';

/** Sections behind the age gate stay off the home page. */
const GATED_TYPES = ['cannabis'];

export const HOME_COUNTS = { latest: 12, featured: 5, bestOf: 6, events: 8, contests: 4 } as const;

type HomeDeps = Pick<AppContext, 'dbRead' | 'config' | 'now'> & Partial<Pick<AppContext, 'changes'>>;

export interface HomeData {
  latest: ArticleRow[];
  featured: ArticleRow[];
  bestOf: BestOfCard[];
  events: EventDTO[];
  contests: ContestDTO[];
}

/** Everything the home page shows, in one statement (on the replica when there is one); sections whose feature is off are not queried. */
async function loadHomeData({ dbRead: db, config, now }: HomeDeps): Promise<HomeData> {
  const at = now();
  const { flags } = config;
  const shows = (on: boolean) => on && !flags.newsOnly;
  const rows = await homeRows(db, at, HOME_COUNTS, {
    bestOf: shows(flags.bestOf),
    events: shows(flags.events),
    contests: shows(flags.contests),
    excludeTypeSlugs: GATED_TYPES,
  });
  return {
    latest: rows.latest,
    featured: rows.featured,
    bestOf: rows.bestOf.map(bestOfCard),
    events: rows.events.map((e) => toEventDTO(e, config.site.url)),
    contests: rows.contests.map((c) => toContestDTO(c, config.site.url, at)),
  };
}

export type HomeService = ReturnType<typeof createHomeService>;

/**
 * Built once per app by the registry (apps/index.ts): it keeps the home's lists, which are the
 * same for everybody, HOME_SECTIONS_TTL_MS in each process (a per-app cache).
 */
export function createHomeService(ctx: HomeDeps) {
  const cache = new MemoryCache<'home', HomeData>({ name: 'home-sections', ttlMs: HOME_SECTIONS_TTL_MS, maxEntries: 1 });
  // A change naming the home (a story, an event or a Best of list: http/surrogate-keys.ts), or
  // naming nothing (a reconnect): the home's lists are made again on the next visit. A place's
  // or a photo's change keeps them.
  ctx.changes?.subscribe((change) => {
    if (changeTouches(change, ['home'])) cache.clear();
  });
  return {
    /** The home's lists, loaded once for the requests that miss the cache together. */
    data(): Promise<HomeData> {
      return cache.load('home', () => loadHomeData(ctx));
    },
  };
}
