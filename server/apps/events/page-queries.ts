import type { Db } from '../../db';
import type { Schedule } from './schedule';
import { scheduleWords } from './schedule-words';
import { eventsQuery, type EventRow } from './serialize';

// What the event pages read beyond the content API's lists: each event's schedule as entered
// (to say it in words) and one event with all its upcoming dates.

interface ScheduleRow {
  id: number;
  schedule_type: Schedule['schedule_type'];
  start_date: string;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  all_day: boolean;
  weekdays: number[] | null;
}

const SCHEDULE_COLUMNS = ['id', 'schedule_type', 'start_date', 'end_date', 'start_time', 'end_time', 'all_day', 'weekdays'];

function toSchedule(r: ScheduleRow): Schedule {
  return {
    schedule_type: r.schedule_type,
    start_date: r.start_date,
    end_date: r.end_date,
    start_time: r.start_time,
    end_time: r.end_time,
    all_day: r.all_day,
    weekdays: r.weekdays?.map(Number) ?? null,
  };
}

/** Irregular schedules are their dates: read them from the occurrences, with each day's times. */
async function irregularDates(db: Db, ids: number[], timeZone: string) {
  if (!ids.length) return new Map<number, Array<{ date: string; start_time: string | null; end_time: string | null }>>();
  const rows = await db('event_occurrences')
    .whereIn('event_id', ids)
    .orderBy([{ column: 'event_id' }, { column: 'starts_at' }])
    .select(
      'event_id',
      db.raw("to_char(local_date, 'YYYY-MM-DD') as date"),
      db.raw("case when all_day then null else to_char(starts_at at time zone ?, 'HH24:MI') end as start_time", [timeZone]),
      db.raw("case when all_day or ends_at is null then null else to_char(ends_at at time zone ?, 'HH24:MI') end as end_time", [timeZone]),
    );
  const out = new Map<number, Array<{ date: string; start_time: string | null; end_time: string | null }>>();
  for (const r of rows) {
    if (!out.has(r.event_id)) out.set(r.event_id, []);
    out.get(r.event_id)!.push({ date: r.date, start_time: r.start_time, end_time: r.end_time });
  }
  return out;
}

/** Each event's schedule in words ('Every Tuesday and Thursday, 7 pm – 9 pm, until December 18'). */
export async function scheduleWordsFor(db: Db, ids: number[], now: Date, timeZone: string): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows: ScheduleRow[] = await db('events').whereIn('id', ids).select(SCHEDULE_COLUMNS);
  const dates = await irregularDates(db, rows.filter((r) => r.schedule_type === 'irregular').map((r) => r.id), timeZone);
  return new Map(rows.map((r) => [r.id, scheduleWords(toSchedule(r), { timeZone, now, dates: dates.get(r.id) })]));
}

export interface EventDetailRow extends EventRow {
  categories: string[];
  is_free: boolean | null;
  price_cad: number | null;
  organizer_name: string;
  is_virtual_event: boolean;
  is_multiple_venues: boolean;
  source_url: string;
  /** An imported picture: where the original is, and whom to credit; null for our own. */
  image_source_url: string | null;
  image_credit: string | null;
}

export async function eventDetail(db: Db, id: number, now: Date): Promise<EventDetailRow | undefined> {
  return eventsQuery(db, now)
    .where('e.id', id)
    .first('e.categories', 'e.is_free', 'e.price_cad', 'e.organizer_name', 'e.is_virtual_event', 'e.is_multiple_venues', 'e.source_url', 'e.image_source_url', 'e.image_credit');
}

/** The dates still to come (at most `limit`), each with its start and end. */
export async function upcomingOccurrences(db: Db, eventId: number, now: Date, limit: number) {
  return db('event_occurrences')
    .where('event_id', eventId)
    .whereRaw('coalesce(ends_at, starts_at) >= ?', [now])
    .orderBy('starts_at')
    .limit(limit)
    .select('starts_at', 'ends_at', 'all_day');
}
