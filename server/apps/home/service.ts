import type { AppContext } from '../../context';
import type { ArticleRow } from '../articles/serialize';
import { bestOfLists, featuredArticles, latestArticles } from '../articles/page-queries';
import { toEventDTO } from '../events/serialize';
import { toContestDTO } from '../contests/serialize';
import type { ContestDTO, EventDTO } from '../../../shared/dto';
import { bestOfCard, type BestOfCard } from '../articles/view-models';
import { eventsThisWeek, openContests } from './queries';

/** Sections behind the age gate stay off the home page. */
const GATED_TYPES = ['cannabis'];

export const HOME_COUNTS = { latest: 12, featured: 5, bestOf: 6, events: 8, contests: 4 } as const;

export interface HomeData {
  latest: ArticleRow[];
  featured: ArticleRow[];
  bestOf: BestOfCard[];
  events: EventDTO[];
  contests: ContestDTO[];
}

/** Everything the home page shows, in parallel; sections whose feature is off are not queried. */
export async function homeData({ db, config, now }: AppContext): Promise<HomeData> {
  const at = now();
  const { flags } = config;
  const [latest, featured, bestOf, events, contests] = await Promise.all([
    latestArticles(db, HOME_COUNTS.latest, { excludeTypeSlugs: GATED_TYPES }),
    featuredArticles(db, HOME_COUNTS.featured, undefined, GATED_TYPES),
    flags.bestOf && !flags.newsOnly ? bestOfLists(db, 'date', { limit: HOME_COUNTS.bestOf, offset: 0 }).then((r) => r.rows) : [],
    flags.events && !flags.newsOnly ? eventsThisWeek(db, at, HOME_COUNTS.events) : [],
    flags.contests && !flags.newsOnly ? openContests(db, at, HOME_COUNTS.contests) : [],
  ]);
  return {
    latest,
    featured,
    bestOf: bestOf.map(bestOfCard),
    events: events.map((e) => toEventDTO(e, config.site.url)),
    contests: contests.map((c) => toContestDTO(c, config.site.url, at)),
  };
}
