import type { Knex } from 'knex';
import type { Db } from '../../db';
import { selectSections } from '../../db/sections';
import type { ArticleRow } from '../articles/serialize';
import { articlesQuery, BEST_OF_ORDERINGS, type BestOfListRow } from '../articles/queries';
import type { EventRow } from '../events/serialize';
import type { ContestRow } from '../contests/serialize';
import { EVENT_COLUMNS, whereEventIsPublic } from '../events/queries';
import { contestsQuery } from '../contests/queries';

// The home page's lists, all in one statement (db/sections.ts): one round trip, one plan.

const WEEK_MS = 7 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

const newestFirst = [
  { column: 'a.date_published', order: 'desc' },
  { column: 'a.id', order: 'desc' },
] as const;

export interface HomeCounts {
  latest: number;
  featured: number;
  bestOf: number;
  events: number;
  contests: number;
}

/** Which lists the home shows: sections whose feature is off are not queried. */
export interface HomeSectionsWanted {
  bestOf: boolean;
  events: boolean;
  contests: boolean;
  /** Article types kept off the home (behind the age gate). */
  excludeTypeSlugs: string[];
}

export interface HomeRows {
  latest: ArticleRow[];
  featured: ArticleRow[];
  bestOf: BestOfListRow[];
  events: EventRow[];
  contests: ContestRow[];
}

function articles(db: Db, now: Date, limit: number, excludeTypeSlugs: string[]) {
  const q = articlesQuery(db, now).orderBy(newestFirst as never).limit(limit);
  if (excludeTypeSlugs.length) q.whereNotIn('t.slug', excludeTypeSlugs);
  return q;
}

/**
 * Approved events with an occurrence from a day ago to a week from now that has not ended,
 * soonest first; the window is found on event_occurrences (starts_at index), so the cost
 * follows the week's events. Each event's time is its next occurrence that has not ended (it
 * has one, being in the window): one lateral lookup, where the general events query
 * (events/queries.ts) needs four correlated subqueries to also cover past events, which
 * took longer to plan than to run.
 */
export function eventsThisWeekQuery(db: Db, now: Date, limit: number): Knex.QueryBuilder {
  const inWindow = db('event_occurrences as o')
    .where('o.starts_at', '>=', new Date(now.getTime() - DAY_MS))
    .where('o.starts_at', '<', new Date(now.getTime() + WEEK_MS))
    .whereRaw('coalesce(o.ends_at, o.starts_at) >= ?', [now])
    .select('o.event_id');
  return whereEventIsPublic(db('events as e'))
    .joinRaw(
      'cross join lateral (select o.starts_at, o.ends_at from event_occurrences o where o.event_id = e.id and coalesce(o.ends_at, o.starts_at) >= ? order by o.starts_at limit 1) as nx',
      [now],
    )
    .leftJoin('listings as el', 'el.id', 'e.listing_id')
    .leftJoin('listing_types as elt', 'elt.id', 'el.type_id')
    .whereIn('e.id', inWindow)
    .select([...EVENT_COLUMNS, 'nx.starts_at as start_date_time', 'nx.ends_at as end_date_time'])
    .orderBy([{ column: 'nx.starts_at' }, { column: 'e.id' }])
    .limit(limit);
}

/** Contests still open, ending soonest first. */
export function openContestsQuery(db: Db, now: Date, limit: number): Knex.QueryBuilder {
  return contestsQuery(db, now).where('c.end_date', '>', now).orderBy([{ column: 'c.end_date' }, { column: 'c.id' }]).limit(limit);
}

/** The newest Best of lists (the Best of page's "most recent" order). */
function newestBestOfQuery(db: Db, limit: number): Knex.QueryBuilder {
  return db('best_of_lists as b')
    .select('b.id', 'b.title', 'b.slug', 'b.intro', 'b.image_key', 'b.popularity', 'b.date_published', 'b.article_id')
    .orderBy(BEST_OF_ORDERINGS.date as never)
    .limit(limit);
}

/** Every list the home shows, in one statement. */
export async function homeRows(db: Db, now: Date, counts: HomeCounts, wanted: HomeSectionsWanted): Promise<HomeRows> {
  const queries: Partial<Record<keyof HomeRows, Knex.QueryBuilder>> = {
    latest: articles(db, now, counts.latest, wanted.excludeTypeSlugs),
    featured: articles(db, now, counts.featured, wanted.excludeTypeSlugs).where('a.is_featured', true),
  };
  if (wanted.bestOf) queries.bestOf = newestBestOfQuery(db, counts.bestOf);
  if (wanted.events) queries.events = eventsThisWeekQuery(db, now, counts.events);
  if (wanted.contests) queries.contests = openContestsQuery(db, now, counts.contests);
  const rows = await selectSections(db, queries as Record<keyof HomeRows, Knex.QueryBuilder>, [
    'date_published', 'date_created', 'start_date_time', 'end_date_time', 'start_date', 'end_date',
  ]);
  return {
    latest: rows.latest as ArticleRow[],
    featured: rows.featured as ArticleRow[],
    bestOf: (rows.bestOf ?? []) as BestOfListRow[],
    events: (rows.events ?? []) as EventRow[],
    contests: (rows.contests ?? []) as ContestRow[],
  };
}
