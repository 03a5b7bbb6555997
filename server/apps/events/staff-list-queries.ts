import type { Knex } from 'knex';
import type { Db } from '../../db';
import { containsPattern } from '../../db/like-pattern';
import { allEventsQuery, whereEventIsPublic } from './queries';

// The staff list of published events (/staff/events/published/): upcoming ones (a date not
// over yet) soonest first, or past ones (every date over) latest first, by title, one page.

export const PUBLISHED_EVENT_TABS = ['upcoming', 'past'] as const;
export type PublishedEventTab = (typeof PUBLISHED_EVENT_TABS)[number];

export interface PublishedEventFilters {
  /** Part of the title, as typed ('' for any). */
  q: string;
  tab: PublishedEventTab;
}

export interface PublishedEventRow {
  id: number;
  slug: string;
  title: string;
  venue_name: string;
  listing_name: string | null;
  schedule_type: string;
  /** Upcoming: the next date not over; past: the last date (allEventsQuery's rule). */
  start_date_time: Date | null;
  end_date_time: Date | null;
}

/** Events with a date not over at `now`; `upcoming` false: those without one. */
function whereUpcoming(qb: Knex.QueryBuilder, db: Db, now: Date, upcoming: boolean): Knex.QueryBuilder {
  const notOver = db('event_occurrences as o').whereRaw('o.event_id = e.id').whereRaw('coalesce(o.ends_at, o.starts_at) >= ?', [now]).select(db.raw('1'));
  return upcoming ? qb.whereExists(notOver) : qb.whereNotExists(notOver);
}

/** One page of the published events that match, and how many match. */
export async function publishedEvents(db: Db, f: PublishedEventFilters, now: Date, page: { limit: number; offset: number }): Promise<{ rows: PublishedEventRow[]; count: number }> {
  const filter = (qb: Knex.QueryBuilder) => {
    whereUpcoming(whereEventIsPublic(qb), db, now, f.tab === 'upcoming');
    if (f.q) qb.whereILike('e.title', containsPattern(f.q));
    return qb;
  };
  const dir = f.tab === 'upcoming' ? 'asc' : 'desc';
  const [rows, total] = await Promise.all([
    filter(allEventsQuery(db, now))
      .orderBy([{ column: 'start_date_time', order: dir, nulls: 'last' }, { column: 'e.id', order: dir }])
      .limit(page.limit)
      .offset(page.offset) as Promise<PublishedEventRow[]>,
    filter(db('events as e')).count<Array<{ count: string | number }>>({ count: '*' }),
  ]);
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })), count: Number(total[0].count) };
}
