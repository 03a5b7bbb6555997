import type { Db } from '../../db';
import { eventsQuery, type EventRow } from '../events/serialize';
import { contestsQuery, type ContestRow } from '../contests/serialize';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Approved events with an occurrence from the start of today to a week from now, soonest
 * first. The window is found on event_occurrences (starts_at index), so the cost follows the
 * week's events, not all events.
 */
export async function eventsThisWeek(db: Db, now: Date, limit: number): Promise<EventRow[]> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const weekAhead = new Date(now.getTime() + WEEK_MS);
  const inWindow = db('event_occurrences as o')
    .where('o.starts_at', '>=', dayAgo)
    .where('o.starts_at', '<', weekAhead)
    .whereRaw('coalesce(o.ends_at, o.starts_at) >= ?', [now])
    .select('o.event_id');
  return eventsQuery(db, now)
    .whereIn('e.id', inWindow)
    .orderBy([{ column: 'start_date_time' }, { column: 'e.id' }])
    .limit(limit);
}

/** Contests still open, ending soonest first. */
export async function openContests(db: Db, now: Date, limit: number): Promise<ContestRow[]> {
  return contestsQuery(db).where('c.end_date', '>', now).where('c.date_published', '<=', now).orderBy([{ column: 'c.end_date' }, { column: 'c.id' }]).limit(limit);
}
