import type { Knex } from 'knex';
import type { Db } from '../../db';
import { MINUTES_PER_DAY, MINUTES_PER_WEEK, hoursColumns, type OpenNowProbe, type PlaceHours } from '../../../shared/place-hours';

// The Open now filter on `listings as l` and the one way to write a place's hours (the JSON and
// its derived columns together). The derived columns are shared/place-hours.ts' hoursIndex: a
// containment test each, no JSON read (docs/places-desk.md has the cost).

/** One part of the day (today's own ranges, or yesterday's past midnight), a holiday applied. */
function part(holiday: boolean, weekKey: number, dayKey: number): { sql: string; bindings: number[] } {
  if (!holiday) return { sql: 'l.hours_week @> ?::int', bindings: [weekKey] };
  // hours_holiday: null keeps the usual hours, empty is closed, else the holiday's own ranges.
  return { sql: '(case when l.hours_holiday is null then l.hours_week @> ?::int else l.hours_holiday @> ?::int end)', bindings: [weekKey, dayKey] };
}

/**
 * Places open at the probe's minute: today's own ranges, or yesterday's past midnight, each as
 * a holiday or a temporary closure changes it. Unknown hours (null columns) never match.
 */
export function whereOpenNow(qb: Knex.QueryBuilder, p: OpenNowProbe): void {
  const own = part(p.todayIsHoliday, p.weekMinute, p.dayMinute);
  const spill = part(p.yesterdayWasHoliday, MINUTES_PER_WEEK + p.weekMinute, MINUTES_PER_DAY + p.dayMinute);
  const notClosed = 'not coalesce(l.hours_closed @> ?::date, false)';
  qb.whereRaw(`((${own.sql} and ${notClosed}) or (${spill.sql} and ${notClosed}))`, [...own.bindings, p.today, ...spill.bindings, p.yesterday]);
}

/** Writes a place's hours: the JSON and the columns the filter reads, never one without the other. */
export async function saveListingHours(db: Db | Knex.Transaction, listingId: number, hours: PlaceHours | null): Promise<void> {
  await db('listings').where('id', listingId).update(hoursColumns(hours));
}
