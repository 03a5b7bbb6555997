import type { Knex } from 'knex';
import type { Db } from '../../db';
import { SCHEDULE_COLUMNS, type ScheduleRow } from '../events/queries';
import type { SubmittedEventRow } from './queries';

// What staff's event edit (/staff/events/{id}/edit/) reads of an event and writes back: the
// columns the add-event form fills, and an irregular event's dates (its occurrences).

/** The event as its staff form shows it: its schedule as entered, and the form's other columns. */
export type EditableEvent = ScheduleRow &
  Pick<SubmittedEventRow, 'slug' | 'title' | 'description' | 'venue_name' | 'listing_id' | 'is_multiple_venues' | 'is_virtual_event' | 'address' | 'website' | 'image_key'> & {
    /** irregular: each date with its times (wall-clock, the city's zone), in order */
    dates: Array<{ local_date: string; starts_at: Date; ends_at: Date | null }>;
  };

/** The event, in any status, as its staff form shows it; undefined when there is none. */
export async function editableEvent(db: Db, id: number): Promise<EditableEvent | undefined> {
  const row = await db('events')
    .where({ id })
    // Dates come back as 'YYYY-MM-DD' strings (db/index.ts's type parsers).
    .first(...SCHEDULE_COLUMNS, 'slug', 'title', 'description', 'venue_name', 'listing_id', 'is_multiple_venues', 'is_virtual_event', 'address', 'website', 'image_key');
  if (!row) return undefined;
  const dates = row.schedule_type === 'irregular'
    ? await db('event_occurrences').where({ event_id: id }).orderBy('starts_at').select(db.raw("to_char(local_date, 'YYYY-MM-DD') as local_date"), 'starts_at', 'ends_at')
    : [];
  return { ...row, id: Number(row.id), dates };
}

/** Writes the form's columns over event `id` (locked first by the caller's transaction). */
export async function updateEditedEvent(trx: Knex.Transaction, id: number, row: Record<string, unknown>): Promise<void> {
  await trx('events').where({ id }).update(row);
}

/** Locks event `id` for an edit; its slug, or undefined when it is gone. */
export async function lockEvent(trx: Knex.Transaction, id: number): Promise<{ slug: string } | undefined> {
  return trx('events').where({ id }).forUpdate().first('slug');
}
