import type { Knex } from 'knex';
import type { Db } from '../../db';
import { absoluteUrl, urls } from '../../../shared/urls';
import type { Row } from './tabular';
import { isEventRowPublic } from '../events/queries';
import type { OccurrenceRow } from '../calendar/ics-feed';
import { occurrenceColumns } from '../calendar/queries';

// What the export reads of one member, table by table: each source is a query of that
// member's rows only (profile_id / submitted_by = the member), read in batches in id order
// (keyset paging: each batch starts after the last id of the one before), so a member with
// 10,000 saves costs one batch of rows at a time, on PGlite and PostgreSQL alike.

export const BATCH_SIZE = 500;

/** Every row `page` gives, batch by batch. `page(after)` returns rows with id > after, ordered by id. */
export async function* inBatches(page: (after: number, limit: number) => Knex.QueryBuilder, opts: { key?: string; size?: number } = {}): AsyncGenerator<Row> {
  const { key = 'id', size = BATCH_SIZE } = opts;
  let after = 0;
  for (;;) {
    const rows: Row[] = await page(after, size);
    for (const row of rows) yield row;
    if (rows.length < size) return;
    after = Number(rows[rows.length - 1][key]);
  }
}

/**
 * The member's next `limit` rows of `table` after id `after`, as `s`, ordered by id. The page is
 * cut on the table alone and joined afterwards: joined first, PostgreSQL would join every row
 * of the member and sort them all for each page.
 */
export function memberPage(db: Db, table: string, memberId: number, after: number, limit: number, owner = 'profile_id') {
  return db.from(db(table).where(owner, memberId).where('id', '>', after).orderBy('id').limit(limit).as('s')).orderBy('s.id');
}

export interface MemberTable {
  /** The file's name in the ZIP, without .json / .csv. */
  file: string;
  /** What the table is, for README.txt. */
  about: string;
  columns: readonly string[];
  rows(db: Db, memberId: number, siteUrl: string): AsyncIterable<Row>;
}

async function* mapped(rows: AsyncIterable<Row>, map: (row: Row) => Row): AsyncGenerator<Row> {
  for await (const row of rows) yield map(row);
}

const listingUrl = (siteUrl: string, r: Row) =>
  r.listing_slug && r.type_slug ? absoluteUrl(siteUrl, urls.listing(String(r.type_slug), String(r.listing_slug), Number(r.listing_id))) : null;

/** A save of a listing (favourites, to-dos, ratings), with the place's name and link. */
function listingSaves(db: Db, table: string, memberId: number, extra: string[]) {
  return (after: number, limit: number) =>
    memberPage(db, table, memberId, after, limit)
      .join('listings as l', 'l.id', 's.listing_id')
      .join('listing_types as lt', 'lt.id', 'l.type_id')
      .select('s.id', 's.date_created', 's.listing_id', 'l.name as listing_name', 'l.slug as listing_slug', 'lt.slug as type_slug', 'l.address', 'l.latitude', 'l.longitude', ...extra.map((c) => `s.${c}`));
}

const LISTING_COLUMNS = ['listing_id', 'listing_name', 'listing_url', 'address'] as const;

export const FAVOURITES: MemberTable = {
  file: 'favourites',
  about: 'places you saved as favourites (also favourites.geojson, for maps)',
  columns: ['id', 'date_created', ...LISTING_COLUMNS, 'latitude', 'longitude'],
  rows: (db, memberId, siteUrl) => mapped(inBatches(listingSaves(db, 'favourites', memberId, [])), (r) => ({ ...r, listing_url: listingUrl(siteUrl, r) })),
};

export const TODOS: MemberTable = {
  file: 'todos',
  about: 'your to-do list of places',
  columns: ['id', 'date_created', ...LISTING_COLUMNS, 'is_done', 'date_completed'],
  rows: (db, memberId, siteUrl) => mapped(inBatches(listingSaves(db, 'todos', memberId, ['is_done', 'date_completed'])), (r) => ({ ...r, listing_url: listingUrl(siteUrl, r) })),
};

export const RATINGS: MemberTable = {
  file: 'ratings',
  about: 'your ratings of places, 1 to 5 stars',
  columns: ['id', 'date_created', 'date_updated', 'rating', ...LISTING_COLUMNS],
  rows: (db, memberId, siteUrl) => mapped(inBatches(listingSaves(db, 'ratings', memberId, ['rating', 'date_updated'])), (r) => ({ ...r, listing_url: listingUrl(siteUrl, r) })),
};

export const ARTICLE_BOOKMARKS: MemberTable = {
  file: 'article-bookmarks',
  about: 'articles you saved',
  columns: ['id', 'date_created', 'article_id', 'article_name', 'article_url'],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'article_bookmarks', memberId, after, limit).join('articles as a', 'a.id', 's.article_id')
          .select('s.id', 's.date_created', 's.article_id', 'a.name as article_name', 'a.path'),
      ),
      (r) => ({ ...r, article_url: absoluteUrl(siteUrl, String(r.path)) }),
    ),
};

export const VIDEO_BOOKMARKS: MemberTable = {
  file: 'video-bookmarks',
  about: 'videos you saved',
  columns: ['id', 'date_created', 'video_id', 'video_title', 'video_url'],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'video_bookmarks', memberId, after, limit).join('videos as v', 'v.id', 's.video_id')
          .select('s.id', 's.date_created', 's.video_id', 'v.title as video_title', 'v.slug'),
      ),
      (r) => ({ ...r, video_url: absoluteUrl(siteUrl, urls.video(String(r.slug))) }),
    ),
};

export const EVENT_BOOKMARKS: MemberTable = {
  file: 'event-bookmarks',
  about: 'events you saved (also saved-events.ics, for calendar apps)',
  columns: ['id', 'date_created', 'add_to_calendar', 'event_id', 'event_title', 'event_url', 'venue_name', 'start_date'],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'event_bookmarks', memberId, after, limit).join('events as e', 'e.id', 's.event_id')
          .select('s.id', 's.date_created', 's.add_to_calendar', 's.event_id', 'e.title as event_title', 'e.slug', 'e.venue_name', db.raw("to_char(e.start_date, 'YYYY-MM-DD') as start_date")),
      ),
      (r) => ({ ...r, event_url: absoluteUrl(siteUrl, urls.event(String(r.slug), Number(r.event_id))) }),
    ),
};

/** Photos carry `image_key`, which the export turns into a file under photos/ (image_file). */
export function photoRows(db: Db, memberId: number) {
  return inBatches((after, limit) =>
    memberPage(db, 'photos', memberId, after, limit)
      .leftJoin('listings as l', 'l.id', 's.listing_id')
      .leftJoin('listing_types as lt', 'lt.id', 'l.type_id')
      .select('s.id', 's.creation_date', 's.title', 's.description', 's.width', 's.height', 's.image_key', 's.listing_id', 'l.name as listing_name', 'l.slug as listing_slug', 'lt.slug as type_slug'),
  );
}

export const PHOTO_COLUMNS = ['id', 'creation_date', 'title', 'description', 'listing_id', 'listing_name', 'photo_url', 'width', 'height', 'image_file'] as const;

export function photoUrl(siteUrl: string, r: Row): string | null {
  return r.listing_slug && r.type_slug
    ? absoluteUrl(siteUrl, urls.photo(String(r.type_slug), String(r.listing_slug), Number(r.listing_id), Number(r.id)))
    : null;
}

export const SUBMITTED_EVENTS: MemberTable = {
  file: 'submitted-events',
  about: 'events you submitted, with their moderation status',
  columns: ['id', 'date_created', 'date_updated', 'status', 'moderation_note', 'title', 'description', 'venue_name', 'address', 'website', 'schedule_type', 'start_date', 'end_date', 'event_url'],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'events', memberId, after, limit, 'submitted_by')
          .select('s.id', 's.slug', 's.date_created', 's.date_updated', 's.status', 's.moderation_note', 's.title', 's.description', 's.venue_name', 's.address', 's.website', 's.schedule_type',
            db.raw("to_char(s.start_date, 'YYYY-MM-DD') as start_date"), db.raw("to_char(s.end_date, 'YYYY-MM-DD') as end_date")),
      ),
      // Only a public event has a page.
      (r) => ({ ...r, event_url: isEventRowPublic(r) ? absoluteUrl(siteUrl, urls.event(String(r.slug), Number(r.id))) : null }),
    ),
};

export const LOGIN_HISTORY: MemberTable = {
  file: 'login-history',
  about: 'your recent sign-ins: when, from which address and browser, and how (password, facebook, apple); the site keeps the last 100 of the past year',
  columns: ['id', 'logged_in_at', 'method', 'ip', 'user_agent'],
  rows: (db, memberId) =>
    inBatches((after, limit) =>
      memberPage(db, 'login_history', memberId, after, limit).select('id', 'logged_in_at', 'method', 'ip', 'user_agent'),
    ),
};

export const CONTACT_MESSAGES: MemberTable = {
  file: 'contact-messages',
  about: 'messages you sent through the contact form while signed in',
  columns: ['id', 'date_created', 'question_category', 'name', 'email', 'business_name', 'phone_number', 'comment'],
  rows: (db, memberId) =>
    inBatches((after, limit) =>
      memberPage(db, 'contact_messages', memberId, after, limit)
        .select('id', 'date_created', 'question_category', 'name', 'email', 'business_name', 'phone_number', 'comment'),
    ),
};

export const CONTEST_ENTRIES: MemberTable = {
  file: 'contest-entries',
  about: 'contests you entered, with your answer to the skill-testing question if one was asked',
  columns: ['id', 'created_at', 'contest_id', 'contest_title', 'contest_url', 'skill_answer'],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'contest_entries', memberId, after, limit).join('contests as c', 'c.id', 's.contest_id')
          .select('s.id', 's.created_at', 's.contest_id', 'c.title as contest_title', 'c.name as contest_name', 's.skill_answer'),
      ),
      ({ contest_name, ...r }) => ({ ...r, contest_url: absoluteUrl(siteUrl, urls.contest(String(contest_name))) }),
    ),
};

/** The tables written as JSON and CSV, in the order of the ZIP. */
export const ACCESSIBILITY_REPORTS: MemberTable = {
  file: 'accessibility-reports',
  about: 'what you reported about places\' accessibility (yes or no, with your note)',
  columns: ['id', 'date_created', 'date_updated', 'attribute', 'answer', 'note', ...LISTING_COLUMNS],
  rows: (db, memberId, siteUrl) =>
    mapped(inBatches(listingSaves(db, 'accessibility_reports', memberId, ['date_updated', 'attribute', 'answer', 'note'])), (r) => ({ ...r, listing_url: listingUrl(siteUrl, r) })),
};

/** The calendar feeds an organiser added (issue 28), with how their last fetch went. */
export const CALENDAR_FEEDS: MemberTable = {
  file: 'calendar-feeds',
  about: 'the calendar feeds you added for your events, with their last fetch',
  columns: ['id', 'date_created', 'url', 'status', 'paused_reason', 'last_fetched_at', 'last_success_at', 'last_error', 'events_found'],
  rows: (db, memberId) =>
    inBatches((after, limit) => memberPage(db, 'calendar_feeds', memberId, after, limit).select('s.id', 's.date_created', 's.url', 's.status', 's.paused_reason', 's.last_fetched_at', 's.last_success_at', 's.last_error', 's.events_found')),
};

/** Edits the member suggested to places (issue 39), with what staff did with each. */
export const PLACE_SUGGESTIONS: MemberTable = {
  file: 'place-suggestions',
  about: 'edits you suggested to places (closed, moved, hours, phone, website, name), with your note and whether our editors applied them',
  columns: ['id', 'created_at', 'kind', 'value', 'note', 'status', 'decided_at', ...LISTING_COLUMNS],
  rows: (db, memberId, siteUrl) =>
    mapped(
      inBatches((after, limit) =>
        memberPage(db, 'place_suggestions', memberId, after, limit, 'member_id')
          .join('listings as l', 'l.id', 's.listing_id')
          .join('listing_types as lt', 'lt.id', 'l.type_id')
          .select('s.id', 's.created_at', 's.kind', 's.value', 's.note', 's.status', 's.decided_at', 's.listing_id', 'l.name as listing_name', 'l.slug as listing_slug', 'lt.slug as type_slug', 'l.address'),
      ),
      // A suggested value is JSON (hours are an object): kept as its JSON text, which a CSV cell can hold.
      ({ listing_slug, type_slug, value, ...r }) => ({ ...r, value: value !== null && typeof value === 'object' ? JSON.stringify(value) : value, listing_url: listingUrl(siteUrl, { ...r, listing_slug, type_slug }) }),
    ),
};

export const MEMBER_TABLES: readonly MemberTable[] = [FAVOURITES, TODOS, RATINGS, ACCESSIBILITY_REPORTS, PLACE_SUGGESTIONS, ARTICLE_BOOKMARKS, VIDEO_BOOKMARKS, EVENT_BOOKMARKS, SUBMITTED_EVENTS, CALENDAR_FEEDS, CONTEST_ENTRIES, LOGIN_HISTORY, CONTACT_MESSAGES];

// ## What the export reads besides the tables

/** The member's Google Calendar connection, if any. */
export async function calendarConnection(db: Db, memberId: number): Promise<{ provider: string; date_created: Date } | undefined> {
  return db('calendar_credentials').where({ profile_id: memberId }).first('provider', 'date_created');
}

/** Whether the account has a password and a private calendar feed (never the hash or the token), and its sign-in ids. */
export async function accountSecrets(db: Db, memberId: number): Promise<{ has_password: boolean; has_ics_feed: boolean; apple_sub: string | null; facebook_id: string | null } | undefined> {
  return db('profiles').where({ id: memberId }).first(db.raw('password_hash is not null as has_password'), db.raw('ics_token is not null as has_ics_feed'), 'apple_sub', 'facebook_id');
}

/** The newsletter sign-up made without an account with this address (whatever its case), if any. */
export async function guestSubscriptionByEmail(db: Db, email: string): Promise<Record<string, unknown> | undefined> {
  return db('guest_newsletter_subscriptions').whereRaw('lower(email) = lower(?)', [email]).first();
}

/** The member's saved events (event_bookmarks: id, event_id), batch by batch. */
export function savedEvents(db: Db, memberId: number) {
  return inBatches((after, limit) => memberPage(db, 'event_bookmarks', memberId, after, limit).select('s.id', 's.event_id'));
}

/**
 * The occurrences of some events, a page at a time along the (event_id, starts_at) index: an
 * event that repeats every day for years is paged like everything else. The cursor keeps
 * starts_at as PostgreSQL's text, so no precision is lost in JavaScript's Date.
 */
export async function* occurrencesOf(db: Db, eventIds: number[]): AsyncGenerator<OccurrenceRow> {
  let cursor: [number, string] | null = null;
  for (;;) {
    const page = db('event_occurrences as o')
      .join('events as e', 'e.id', 'o.event_id')
      .whereIn('o.event_id', eventIds)
      .orderBy([{ column: 'o.event_id' }, { column: 'o.starts_at' }])
      .limit(BATCH_SIZE)
      .select([...occurrenceColumns(db), db.raw('o.starts_at::text as cursor_starts_at')]);
    if (cursor) page.whereRaw('(o.event_id, o.starts_at) > (?, ?::timestamptz)', cursor);
    const rows: Array<OccurrenceRow & { cursor_starts_at: string }> = await page;
    yield* rows;
    if (rows.length < BATCH_SIZE) return;
    const last = rows[rows.length - 1];
    cursor = [Number(last.id), last.cursor_starts_at];
  }
}
