import moment from 'moment-timezone';
import type { Db } from '../../db';
import type { ArticleRow } from '../articles/serialize';
import { articlesQuery } from '../articles/queries';

// The Patio Guide's stories: articles with "patio" in their headline (the A weight of the
// articles' search vector, so a passing mention in a body does not count), in two groups:
// this patio season's and earlier ones.

/** Toronto's patio season opens in April: from then until next April is one season. */
const SEASON_START_MONTH = 3; // 0-based: April

/** The start of the patio season `now` falls in, in the city's time zone. */
export function patioSeasonStart(now: Date, timeZone: string): Date {
  const local = moment.tz(now, timeZone);
  const year = local.month() >= SEASON_START_MONTH ? local.year() : local.year() - 1;
  return moment.tz({ year, month: SEASON_START_MONTH, day: 1 }, timeZone).toDate();
}

function patioArticlesQuery(db: Db, now: Date) {
  return articlesQuery(db, now)
    .whereRaw(`a.search @@ to_tsquery('english', 'patio:A')`)
    .orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }]);
}

/** This season's patio stories, newest first, and earlier ones to make up `limit`. */
export async function patioArticles(db: Db, seasonStart: Date, now: Date, limit: number): Promise<{ season: ArticleRow[]; earlier: ArticleRow[] }> {
  const season = await patioArticlesQuery(db, now).where('a.date_published', '>=', seasonStart).limit(limit);
  const earlier = season.length < limit ? await patioArticlesQuery(db, now).where('a.date_published', '<', seasonStart).limit(limit - season.length) : [];
  return { season, earlier };
}
