import type { Db } from '../../db';
import type { Schedule } from './schedule';
import { scheduleWords } from './schedule-words';
import { type EventRow, toEventDTO } from './serialize';
import { z } from 'zod';
import type { Knex } from 'knex';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import type { EventDTO } from '../../../shared/dto';
import { validate } from '../../http/validate';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import { cachedCount, minuteFloor } from '../../db/count-cache';
import { KEEP_ANSWERS_FROM, sharedAnswer } from '../../db/answer-cache';
import { surrogateKeys } from '../../http/surrogate-keys';

// What the event pages read beyond the content API's lists: each event's schedule as entered
// (to say it in words) and one event with all its upcoming dates.

/** An event's schedule as entered: the events row's schedule columns (SCHEDULE_COLUMNS). */
export interface ScheduleRow {
  id: number;
  schedule_type: Schedule['schedule_type'];
  start_date: string;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  all_day: boolean;
  weekdays: number[] | null;
}

export const SCHEDULE_COLUMNS = ['id', 'schedule_type', 'start_date', 'end_date', 'start_time', 'end_time', 'all_day', 'weekdays'];

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

export const EVENT_COLUMNS = [
  'e.id', 'e.slug', 'e.title', 'e.description', 'e.venue_name', 'e.address', 'e.latitude', 'e.longitude', 'e.website',
  'e.schedule_type', 'e.all_day', 'e.image_key', 'e.image_url', 'e.can_be_bookmarked', 'e.date_created', 'e.listing_id',
  'el.name as listing_name', 'el.slug as listing_slug', 'elt.slug as listing_type_slug',
] as const;

/**
 * Every event e, in any status, with its listing: for staff reads only (readers use
 * eventsQuery). `start_date_time` is the occurrence given by `at`: the next one that has not
 * ended by then, or else the last one (a past event shows its final date). Each is one indexed
 * lookup on event_occurrences (event_id, starts_at).
 */
export function allEventsQuery(db: Db, at: Date = new Date()) {
  return db('events as e')
    .leftJoin('listings as el', 'el.id', 'e.listing_id')
    .leftJoin('listing_types as elt', 'elt.id', 'el.type_id')
    .select([...EVENT_COLUMNS, occurrenceAt(db, 'starts_at', 'start_date_time', at), occurrenceAt(db, 'ends_at', 'end_date_time', at)]);
}

/** One column of the occurrence allEventsQuery shows at `at`, as `alias`. */
function occurrenceAt(db: Db, column: 'starts_at' | 'ends_at', alias: string, at: Date) {
  return db.raw(
    `coalesce(
      (select o.${column} from event_occurrences o where o.event_id = e.id and coalesce(o.ends_at, o.starts_at) >= ? order by o.starts_at limit 1),
      (select o.${column} from event_occurrences o where o.event_id = e.id order by o.starts_at desc limit 1)
    ) as ${alias}`,
    [at],
  );
}

/** The events a reader may see (whereEventIsPublic: approved), as allEventsQuery. */
export function eventsQuery(db: Db, at: Date = new Date()) {
  return whereEventIsPublic(allEventsQuery(db, at));
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

// Event lists (spec 2 §7): the events occurring on one Canada/Eastern day, or the upcoming
// ones. Both read event_occurrences, one row per day an event happens (recurring schedules
// already expanded, each day converted on its own so DST is right), and show each event once
// at its first occurrence that qualifies: that day's, or the next one not yet over.

const PUBLIC_EVENT_STATUS = 'approved';

/**
 * What a reader may see of events, written once (every page, API, feed, the sitemap, search,
 * newsletters, home and bookmarks filter through it). Each content type has one such scope,
 * named `where<Type>IsPublic(qb, now, alias)`; an event's does not depend on the time.
 *
 * An event is public once staff approved it: a member's or a calendar feed's submission is
 * pending until then, and a rejected one stays off the site.
 */
export function whereEventIsPublic<Q extends Knex.QueryBuilder>(qb: Q, _now?: Date, alias = 'e'): Q {
  qb.where(`${alias}.status`, PUBLIC_EVENT_STATUS);
  return qb;
}

/** The same rule for an event row already read (a member's export of the events they submitted). */
export const isEventRowPublic = (row: { status?: unknown }): boolean => row.status === PUBLIC_EVENT_STATUS;

export const EVENT_ORDERINGS = ['-start_date_time', 'start_date_time'] as const;
export const EVENT_BUNDLES = ['simple', 'medium', 'large'] as const;
export type EventOrdering = (typeof EVENT_ORDERINGS)[number];
export type EventBundle = (typeof EVENT_BUNDLES)[number];

export interface EventListParams extends PageParams {
  /** YYYY-MM-DD, a Canada/Eastern calendar day; without it, upcoming events. */
  date?: string;
  ordering: EventOrdering;
  bundle_type: EventBundle;
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const isoDate = z
  .string()
  .trim()
  .refine((s) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Date has wrong format. Use YYYY-MM-DD.');

const schema = z.object({
  date: z.preprocess(blankToUndefined, isoDate.optional()),
  ordering: z.preprocess(blankToUndefined, z.enum(EVENT_ORDERINGS, { message: `Select a valid choice: ${EVENT_ORDERINGS.join(', ')}.` }).default('-start_date_time')),
  bundle_type: z.preprocess(blankToUndefined, z.enum(EVENT_BUNDLES, { message: `Select a valid choice: ${EVENT_BUNDLES.join(', ')}.` }).default('simple')),
});

/** Defaults from spec 1 §9: limit 6, -start_date_time, bundle simple. */
export function parseEventListParams(query: unknown, defaultLimit: number = PAGE_SIZE.events): EventListParams {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  const v = validate(schema, q);
  return { ...page, date: v.date, ordering: v.ordering, bundle_type: v.bundle_type };
}

/** spec 2 §3 "Event (as listed)" for simple; the full DTO for medium; plus details for large. */
export type EventResult = Partial<EventDTO> & Pick<EventDTO, 'id' | 'title' | 'share_url' | 'start_date_time'> & {
  description?: string;
  categories?: string[];
  is_free?: boolean | null;
  price_cad?: number | null;
};

type Condition = (qb: Knex.QueryBuilder, alias: string) => void;

/**
 * Occurrences `o` that satisfy `condition` and are their event's first that does, joined to
 * approved events. The anti-join probes the (event_id, starts_at) unique index.
 */
function firstOccurrences(db: Db, condition: Condition) {
  const qb = whereEventIsPublic(db('event_occurrences as o').join('events as e', 'e.id', 'o.event_id'))
    .whereNotExists(function (this: Knex.QueryBuilder) {
      this.select(db.raw('1')).from('event_occurrences as o2').whereRaw('o2.event_id = o.event_id').whereRaw('o2.starts_at < o.starts_at');
      condition(this, 'o2');
    });
  condition(qb, 'o');
  return qb;
}

function onDay(date: string): Condition {
  return (qb, a) => void qb.where(`${a}.local_date`, date);
}

/**
 * Not over at `at`. An occurrence not yet over started at most the longest occurrence's
 * duration before `at`: that bound (max() from the duration's expression index, exact and
 * current) lets the starts_at index skip every past occurrence, which the end condition alone
 * cannot (at city scale: 29k past rows filtered per request, 13 ms → 0.3 ms).
 */
function notOverAt(at: Date): Condition {
  return (qb, a) =>
    void qb
      .whereRaw(`coalesce(${a}.ends_at, ${a}.starts_at) >= ?`, [at])
      .whereRaw(`${a}.starts_at >= ?::timestamptz - (select coalesce(max(coalesce(d.ends_at, d.starts_at) - d.starts_at), interval '0') from event_occurrences d)`, [at]);
}

/**
 * What a list of events shows, for the shared answers and counts: events, and their places'
 * names and paths (a place's change names `places`), so a story's change keeps them.
 */
const EVENT_LIST_TAGS = [surrogateKeys.events, surrogateKeys.places];

async function page(db: Db, condition: Condition, p: EventListParams, siteUrl: string): Promise<{ count: number; results: EventResult[] }> {
  const dir = p.ordering === 'start_date_time' ? 'asc' : 'desc';
  // The count and the page in parallel: one round trip of waiting, not two.
  const [total, rows] = await Promise.all([cachedCount(db, firstOccurrences(db, condition).count({ count: '*' }), { tags: EVENT_LIST_TAGS }), pageRows(db, condition, p, dir)]);
  return { count: total, results: rows.map((r) => toBundle(r, p.bundle_type, siteUrl)) };
}

function pageRows(db: Db, condition: Condition, p: EventListParams, dir: 'asc' | 'desc'): Promise<Array<EventRow & Record<string, unknown>>> {
  return firstOccurrences(db, condition)
    .leftJoin('listings as el', 'el.id', 'e.listing_id')
    .leftJoin('listing_types as elt', 'elt.id', 'el.type_id')
    .select([...EVENT_COLUMNS, 'e.categories', 'e.is_free', 'e.price_cad', 'o.starts_at as start_date_time', 'o.ends_at as end_date_time'])
    .orderBy('o.starts_at', dir)
    .orderBy('e.id', dir)
    .offset(p.offset)
    .limit(p.limit);
}

function toBundle(row: EventRow & Record<string, unknown>, bundle: EventBundle, siteUrl: string): EventResult {
  const dto = toEventDTO(row, siteUrl);
  if (bundle === 'simple') {
    return {
      id: dto.id,
      title: dto.title,
      image_url: dto.image_url,
      share_url: dto.share_url,
      start_date_time: dto.start_date_time,
      all_day: dto.all_day,
      venue_name: dto.venue_name,
      listing: dto.listing,
      can_be_bookmarked: dto.can_be_bookmarked,
    };
  }
  if (bundle === 'large') {
    return {
      ...dto,
      description: row.description,
      categories: (row.categories as string[] | null) ?? [],
      is_free: (row.is_free as boolean | null) ?? null,
      price_cad: row.price_cad === null || row.price_cad === undefined ? null : Number(row.price_cad),
    };
  }
  return dto;
}

/** Events occurring on a Canada/Eastern day (YYYY-MM-DD), each once, at that day's start time. */
export function eventsOnDate(db: Db, date: string, p: Omit<EventListParams, 'date'>, siteUrl: string) {
  return page(db, onDay(date), { ...p, date }, siteUrl);
}

/** Events not over at `at`, each once, at its next occurrence. */
export function upcomingEvents(db: Db, at: Date, p: Omit<EventListParams, 'date'>, siteUrl: string) {
  return page(db, notOverAt(minuteFloor(at)), p, siteUrl);
}

/**
 * The API's list: by date when one is given, else upcoming. The same for everybody: a large
 * answer is kept a few seconds (db/answer-cache.ts), per minute for the upcoming ones.
 */
export function listEvents(db: Db, p: EventListParams, opts: { siteUrl: string; now: Date }) {
  const minute = p.date ? undefined : minuteFloor(opts.now);
  const load = () => (p.date ? eventsOnDate(db, p.date, p, opts.siteUrl) : upcomingEvents(db, opts.now, p, opts.siteUrl));
  return sharedAnswer(db, JSON.stringify(['events', p, opts.siteUrl]), load, { keep: (r) => r.count >= KEEP_ANSWERS_FROM, minute, tags: EVENT_LIST_TAGS });
}

// The outside pictures of imported events (image-import.ts copies them into our media store).

/** Events with an outside picture (image_source_url) and no copy of their own yet, by id, at most `limit`. */
export async function eventsWithOutsideImage(db: Db, limit: number): Promise<Array<{ id: number; image_source_url: string }>> {
  return db('events')
    .whereNotNull('image_source_url')
    .where((q) => q.whereNull('image_key').orWhere('image_key', 'like', 'seed/%'))
    .orderBy('id')
    .limit(limit)
    .select('id', 'image_source_url');
}

/** The event's picture is now our copy under `key`. */
export async function setImportedImageKey(db: Db, id: number, key: string): Promise<void> {
  await db('events').where({ id }).update({ image_key: key, image_url: null });
}
