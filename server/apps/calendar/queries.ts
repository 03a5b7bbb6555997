import type { Db } from '../../db';
import { whereEventIsPublic } from '../events/queries';
import type { CalendarSourceEvent } from './google-event';
import type { OccurrenceRow } from './ics-feed';

// What the calendar reads and writes: a saved event for Google Calendar, the copy's id on the
// bookmark, and the private ICS feed's token and occurrences (credential-queries.ts keeps the
// Google tokens).

/** An approved event with its occurrences, or undefined. */
export async function loadCalendarSourceEvent(db: Db, eventId: number): Promise<CalendarSourceEvent | undefined> {
  const event = await whereEventIsPublic(db('events as e'))
    .where('e.id', eventId)
    .first('id', 'slug', 'title', 'description', 'venue_name', 'address', 'schedule_type', 'weekdays');
  if (!event) return undefined;
  const occurrences = await db('event_occurrences')
    .where({ event_id: eventId })
    .orderBy('starts_at')
    .select(db.raw("to_char(local_date, 'YYYY-MM-DD') as local_date"), 'starts_at', 'ends_at', 'all_day');
  return { ...event, occurrences: occurrences.map((o) => ({ ...o, starts_at: new Date(o.starts_at), ends_at: o.ends_at ? new Date(o.ends_at) : null })) };
}

/** Keeps the id of the Google Calendar copy on the member's bookmark of the event. */
export async function setBookmarkCalendarEventId(db: Db, memberId: number, eventId: number, calendarEventId: string): Promise<void> {
  await db('event_bookmarks').where({ profile_id: memberId, event_id: eventId }).update({ calendar_event_id: calendarEventId });
}

/** The member's ICS feed token, or null when they have none. */
export async function icsTokenOf(db: Db, memberId: number): Promise<string | null> {
  const row = await db('profiles').where({ id: memberId }).first('ics_token');
  return row?.ics_token ?? null;
}

/** Sets the member's ICS feed token (null revokes the feed). */
export async function setIcsToken(db: Db, memberId: number, token: string | null): Promise<void> {
  await db('profiles').where({ id: memberId }).update({ ics_token: token });
}

/** The active member whose feed this token opens, or undefined. */
export async function activeMemberByIcsToken(db: Db, token: string): Promise<{ id: number } | undefined> {
  return db('profiles').where({ ics_token: token, is_active: true }).first('id');
}

/** The columns occurrenceIcsEvent reads: an event e joined with one occurrence o. */
export function occurrenceColumns(db: Pick<Db, 'raw'>) {
  return ['e.id', 'e.slug', 'e.title', 'e.description', 'e.venue_name', 'e.address', 'o.starts_at', 'o.ends_at', 'o.all_day', db.raw("to_char(o.local_date, 'YYYY-MM-DD') as local_date")];
}

/** The occurrences of the member's saved public events not ended before `since`, in order, at most `limit`. */
export async function savedEventOccurrences(db: Db, memberId: number, since: Date, limit: number): Promise<OccurrenceRow[]> {
  return whereEventIsPublic(db('event_bookmarks as b'))
    .join('events as e', 'e.id', 'b.event_id')
    .join('event_occurrences as o', 'o.event_id', 'e.id')
    .where('b.profile_id', memberId)
    .where(db.raw('coalesce(o.ends_at, o.starts_at)'), '>=', since)
    .orderBy([{ column: 'o.starts_at' }, { column: 'e.id' }])
    .limit(limit)
    .select(occurrenceColumns(db));
}
