import type { Db } from '../../db';
import type { Occurrence } from './schedule';

/** Replaces an event's occurrences (after it is created, edited or approved). */
export async function replaceOccurrences(db: Db, eventId: number, occurrences: Occurrence[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('event_occurrences').where({ event_id: eventId }).delete();
    for (let i = 0; i < occurrences.length; i += 500) {
      await trx('event_occurrences').insert(
        occurrences.slice(i, i + 500).map((o) => ({ event_id: eventId, local_date: o.local_date, starts_at: o.starts_at, ends_at: o.ends_at, all_day: o.all_day })),
      );
    }
  });
}
