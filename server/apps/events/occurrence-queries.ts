import type { Db } from '../../db';
import type { Occurrence } from './schedule';

/** Rows per insert: 5 columns each, far under PostgreSQL's 65,535 parameters a statement. */
const ROWS_PER_INSERT = 1000;

export interface EventOccurrences {
  eventId: number;
  occurrences: Occurrence[];
}

/** Replaces an event's occurrences (after it is created, edited or approved). */
export async function replaceOccurrences(db: Db, eventId: number, occurrences: Occurrence[]): Promise<void> {
  await db.transaction((trx) => writeOccurrences(trx, [{ eventId, occurrences }], [eventId]));
}

/**
 * The occurrences of several events in a few statements (a calendar feed's sync writes
 * hundreds): those of the `replaced` events deleted in one, then every row inserted
 * ROWS_PER_INSERT at a time. Run it in the caller's transaction.
 */
export async function writeOccurrences(trx: Db, events: EventOccurrences[], replaced: number[]): Promise<void> {
  if (replaced.length) await trx('event_occurrences').whereIn('event_id', replaced).delete();
  const rows = events.flatMap((e) => e.occurrences.map((o) => ({ event_id: e.eventId, local_date: o.local_date, starts_at: o.starts_at, ends_at: o.ends_at, all_day: o.all_day })));
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await trx('event_occurrences').insert(rows.slice(i, i + ROWS_PER_INSERT));
}
