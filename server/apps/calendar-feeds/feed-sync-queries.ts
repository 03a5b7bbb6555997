import moment from 'moment-timezone';
import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { slugify } from '../../../shared/format/text';
import { expandOccurrences, scheduleColumns, type Schedule } from '../events/schedule';
import { writeOccurrences, type EventOccurrences } from '../events/occurrence-queries';
import { fetchFeed, FeedFetchError } from './feed-fetch';
import { fingerprint, FeedParseError, parseFeed, type FeedEvent } from './feed-events';
import { feedPausedEmail } from './paused-email';

// One feed brought up to date: fetched (conditionally), read, and each event written as a
// submission in the staff queue (status pending, source calendar_feed). A later version of an
// event (same UID) updates its pending submission, or sends an approved one back to the queue
// with the differences; a cancelled event, or one gone from the feed, is flagged to staff and
// sent back to the queue, never deleted. Three failures in a row pause the feed.

export const FAILURES_BEFORE_PAUSE = 3;
export const SOURCE = 'calendar_feed';

export type SyncContext = Pick<AppContext, 'db' | 'config' | 'now' | 'mailer' | 'logger'>;

interface FeedRow {
  id: number;
  profile_id: number;
  url: string;
  status: 'active' | 'paused';
  etag: string | null;
  last_modified: string | null;
  consecutive_failures: number;
}

interface Link {
  id: number;
  uid: string;
  event_id: number | null;
  sequence: number;
  last_modified: string | null;
  fingerprint: string;
  state: 'active' | 'cancelled' | 'gone';
  review: Review;
  event_status: string | null;
  last_date: string | null;
}

export interface Change {
  field: string;
  before: string;
  after: string;
}

export interface Review {
  flags: string[];
  changes?: Change[];
}

export type SyncOutcome = 'updated' | 'not-modified' | 'failed';

function describeSchedule(s: Schedule): string {
  const t = s.all_day || !s.start_time ? 'all day' : `${String(s.start_time).slice(0, 5)}${s.end_time ? `–${String(s.end_time).slice(0, 5)}` : ''}`;
  switch (s.schedule_type) {
    case 'single_day':
      return `${s.start_date}, ${t}`;
    case 'day_range':
      return `${s.start_date} to ${s.end_date}, ${t}`;
    case 'weekly':
      return `weekly on ${(s.weekdays ?? []).map((d) => moment().day(d).format('ddd')).join(', ')}, ${s.start_date} to ${s.end_date}, ${t}`;
    case 'irregular':
      return (s.dates ?? []).map((d) => `${d.date}${d.start_time ? ` ${d.start_time.slice(0, 5)}` : ''}`).join('; ');
  }
}

interface EventFields {
  title: string;
  description: string;
  venue_name: string;
  address: string;
  website: string;
  when: string;
}

const fieldsOf = (e: FeedEvent): EventFields => ({ title: e.title, description: e.description, venue_name: e.venueName, address: e.address, website: e.website, when: describeSchedule(e.schedule) });

const LABELS: Record<keyof EventFields, string> = { title: 'Title', description: 'Description', venue_name: 'Venue', address: 'Address', website: 'Website', when: 'When' };

function differences(before: EventFields, after: EventFields): Change[] {
  return (Object.keys(LABELS) as Array<keyof EventFields>).filter((k) => before[k] !== after[k]).map((k) => ({ field: LABELS[k], before: before[k].slice(0, 300), after: after[k].slice(0, 300) }));
}

/** The submissions as they stand, by id, each described as fieldsOf describes a feed's version. */
async function currentFields(trx: Knex.Transaction, eventIds: number[], tz: string): Promise<Map<number, EventFields>> {
  if (!eventIds.length) return new Map();
  const rows = await trx('events').whereIn('id', eventIds).select('id', 'title', 'description', 'venue_name', 'address', 'website', 'schedule_type', 'all_day', 'weekdays', 'start_time', 'end_time', trx.raw("to_char(start_date, 'YYYY-MM-DD') as start_date"), trx.raw("to_char(end_date, 'YYYY-MM-DD') as end_date"));
  const irregular = rows.filter((r) => r.schedule_type === 'irregular').map((r) => r.id as number);
  const dates: Array<{ event_id: number; d: string; t: string | null }> = irregular.length
    ? await trx('event_occurrences').whereIn('event_id', irregular).orderBy(['event_id', 'starts_at']).select('event_id', trx.raw("to_char(local_date, 'YYYY-MM-DD') as d"), trx.raw(`CASE WHEN all_day THEN NULL ELSE to_char(starts_at AT TIME ZONE ?, 'HH24:MI') END as t`, [tz]))
    : [];
  const out = new Map<number, EventFields>();
  for (const row of rows) {
    const when =
      row.schedule_type === 'irregular'
        ? dates.filter((x) => x.event_id === row.id).map((x) => `${x.d}${x.t ? ` ${x.t}` : ''}`).join('; ')
        : describeSchedule({ schedule_type: row.schedule_type, start_date: row.start_date, end_date: row.end_date, all_day: row.all_day, weekdays: row.weekdays, start_time: row.start_time, end_time: row.end_time });
    out.set(Number(row.id), { title: row.title, description: row.description, venue_name: row.venue_name, address: row.address, website: row.website, when });
  }
  return out;
}

function eventColumns(e: FeedEvent, feedUrl: string) {
  return {
    title: e.title,
    slug: slugify(e.title) || 'event',
    description: e.description,
    venue_name: e.venueName,
    address: e.address,
    website: e.website,
    source_url: (e.website || feedUrl).slice(0, 1000),
    ...scheduleColumns(e.schedule),
  };
}

/** Rows per multi-row insert or ids per IN list: an events row has about 20 columns, far under PostgreSQL's 65,535 parameters. */
const BATCH = 1000;

function* batches<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/** A calendar_feed_events row as the sync leaves it. */
interface LinkRow {
  feed_id: number;
  uid: string;
  event_id: number | null;
  sequence: number;
  last_modified: string | null;
  fingerprint: string;
  state: Link['state'];
  review: string;
  date_created: Date;
  date_updated: Date;
}

/** What an existing link's upsert may change (event_id and date_created stay). */
const LINK_UPDATES = ['sequence', 'last_modified', 'fingerprint', 'state', 'review', 'date_updated'] as const;

/**
 * Brings one feed's events into the queue, in one transaction and a few statements whatever
 * the feed's size: one read of its links, then every change gathered and written in batches
 * (new events, their occurrences and their links each in multi-row inserts, the links in one
 * upsert). Only an event edited in the feed costs a statement of its own.
 */
async function applyEvents(ctx: SyncContext, feed: FeedRow, events: FeedEvent[]): Promise<void> {
  const tz = ctx.config.city.timeZone;
  const now = ctx.now();
  const today = moment.tz(now, tz).format('YYYY-MM-DD');
  await ctx.db.transaction(async (trx) => {
    const links: Link[] = await trx('calendar_feed_events as l')
      .leftJoin('events as e', 'e.id', 'l.event_id')
      .where('l.feed_id', feed.id)
      .select('l.id', 'l.uid', 'l.event_id', 'l.sequence', 'l.last_modified', 'l.fingerprint', 'l.state', 'l.review', 'e.status as event_status', trx.raw("(select to_char(max(o.local_date), 'YYYY-MM-DD') from event_occurrences o where o.event_id = l.event_id) as last_date"));
    const byUid = new Map(links.map((l) => [l.uid, l]));

    const added: FeedEvent[] = [];
    const changed: Array<{ e: FeedEvent; link: Link; print: string }> = [];
    const linkRows: LinkRow[] = [];
    /** Events sent back to the queue as they are (cancelled, or gone while still to come). */
    const requeued: number[] = [];
    /** Events rewritten from the feed, and their new occurrences. */
    const edited: Array<{ id: number; columns: Record<string, unknown> }> = [];
    const schedules: EventOccurrences[] = [];
    const linkRow = (link: Link, changes: Partial<LinkRow>): LinkRow => ({
      feed_id: feed.id,
      uid: link.uid,
      event_id: link.event_id,
      sequence: link.sequence,
      last_modified: link.last_modified,
      fingerprint: link.fingerprint,
      state: link.state,
      review: JSON.stringify(link.review),
      date_created: now,
      date_updated: now,
      ...changes,
    });
    /** A link's submission back in the queue, with what staff are to be told. */
    const requeue = (link: Link, review: Review, changes: Partial<LinkRow>) => {
      if (link.event_id) requeued.push(link.event_id);
      linkRows.push(linkRow(link, link.event_id ? { ...changes, review: JSON.stringify(review) } : changes));
    };

    for (const e of events) {
      const link = byUid.get(e.uid);
      if (!link) {
        if (!e.cancelled) added.push(e); // never seen and already cancelled: nothing to show anybody
        continue;
      }
      if (e.sequence < link.sequence) continue; // an older version than the one imported
      if (e.cancelled) {
        if (link.state === 'cancelled') continue;
        requeue(link, { flags: ['The organiser cancelled this event in their calendar (STATUS:CANCELLED). Reject it to take it down.', ...e.flags] }, { state: 'cancelled', sequence: e.sequence, last_modified: e.lastModified });
        continue;
      }
      const print = fingerprint(e);
      if (print === link.fingerprint && link.state === 'active') continue;
      changed.push({ e, link, print });
    }

    const before = await currentFields(trx, changed.flatMap(({ link }) => (link.event_id ? [link.event_id] : [])), tz);
    for (const { e, link, print } of changed) {
      const update: Partial<LinkRow> = { state: 'active', sequence: e.sequence, last_modified: e.lastModified, fingerprint: print };
      const was = link.event_id ? before.get(link.event_id) : undefined;
      if (!link.event_id || !was) {
        linkRows.push(linkRow(link, update)); // staff deleted the submission: not brought back
        continue;
      }
      const columns = eventColumns(e, feed.url);
      if (link.event_status === 'pending') {
        edited.push({ id: link.event_id, columns });
        linkRows.push(linkRow(link, { ...update, review: JSON.stringify({ flags: e.flags }) }));
      } else {
        const changes = differences(was, fieldsOf(e));
        const back = link.state !== 'active' ? ['The event is back in the organiser\'s calendar after being cancelled or removed.'] : [];
        edited.push({ id: link.event_id, columns: { ...columns, status: 'pending' } });
        linkRows.push(linkRow(link, { ...update, review: JSON.stringify({ flags: [`Changed in the organiser's calendar after it was ${link.event_status}.`, ...back, ...e.flags], changes }) }));
      }
      schedules.push({ eventId: link.event_id, occurrences: expandOccurrences(e.schedule, tz) });
    }

    // Gone from the feed: a past event dropping off is normal; one still to come is flagged.
    const present = new Set(events.map((e) => e.uid));
    for (const link of links) {
      if (present.has(link.uid) || link.state !== 'active') continue;
      if (link.last_date && link.last_date >= today && link.event_status !== 'rejected') {
        requeue(link, { flags: ['This event is no longer in the organiser\'s calendar. Reject it to take it down, or approve it to keep it.'] }, { state: 'gone' });
      } else {
        linkRows.push(linkRow(link, { state: 'gone' }));
      }
    }

    // The writes. New events first: their ids come back in the order of the rows (as Django's
    // bulk_create relies on PostgreSQL's RETURNING to do), for their occurrences and links.
    for (const batch of batches(added)) {
      const rows: Array<{ id: number } | number> = await trx('events')
        .insert(batch.map((e) => ({ ...eventColumns(e, feed.url), source: SOURCE, submitted_by: feed.profile_id, status: 'pending', date_created: now, date_updated: now })))
        .returning('id');
      rows.forEach((row, i) => {
        const e = batch[i];
        const eventId = Number(typeof row === 'object' ? row.id : row);
        schedules.push({ eventId, occurrences: expandOccurrences(e.schedule, tz) });
        linkRows.push({ feed_id: feed.id, uid: e.uid, event_id: eventId, sequence: e.sequence, last_modified: e.lastModified, fingerprint: fingerprint(e), state: 'active', review: JSON.stringify({ flags: e.flags }), date_created: now, date_updated: now });
      });
    }
    for (const { id, columns } of edited) await trx('events').where({ id }).update({ ...columns, date_updated: now });
    for (const ids of batches(requeued)) await trx('events').whereIn('id', ids).update({ status: 'pending', date_updated: now });
    await writeOccurrences(trx, schedules, edited.map((x) => x.id));
    for (const rows of batches(linkRows)) await trx('calendar_feed_events').insert(rows).onConflict(['feed_id', 'uid']).merge([...LINK_UPDATES]);
  });
}

async function recordFailure(ctx: SyncContext, feed: FeedRow, reason: string): Promise<void> {
  const failures = feed.consecutive_failures + 1;
  const pause = failures >= FAILURES_BEFORE_PAUSE && feed.status === 'active';
  const now = ctx.now();
  await ctx.db('calendar_feeds').where({ id: feed.id }).update({
    consecutive_failures: failures,
    last_error: reason,
    last_fetched_at: now,
    next_fetch_at: nextFetch(ctx, now),
    date_updated: now,
    ...(pause ? { status: 'paused', paused_reason: `Paused after ${failures} failed fetches in a row. The last one: ${reason}` } : {}),
  });
  if (!pause) return;
  const member = await ctx.db('profiles').where({ id: feed.profile_id }).first('email', 'full_name');
  if (!member?.email) return;
  try {
    await ctx.mailer.send(feedPausedEmail({ siteName: ctx.config.site.name, siteUrl: ctx.config.site.url, to: member.email, name: member.full_name }, feed.url, reason));
  } catch (err) {
    ctx.logger.error({ err, feedId: feed.id }, 'calendar feed paused but the member could not be emailed');
  }
}

const nextFetch = (ctx: SyncContext, now: Date) => new Date(now.getTime() + ctx.config.calendarFeeds.intervalMinutes * 60_000);

/** Fetches and applies one feed now (the schedule, or the member's "Check now"). */
export async function syncFeed(ctx: SyncContext, feedId: number): Promise<SyncOutcome> {
  const feed: FeedRow | undefined = await ctx.db('calendar_feeds').where({ id: feedId }).first();
  if (!feed) return 'failed';
  const limits = { ...ctx.config.calendarFeeds, timeoutMs: ctx.config.calendarFeeds.fetchTimeoutMs };
  let events: FeedEvent[];
  let validators: { etag: string | null; lastModified: string | null } = { etag: null, lastModified: null };
  try {
    const fetched = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, limits);
    const now = ctx.now();
    if (fetched.status === 'not-modified') {
      await ctx.db('calendar_feeds').where({ id: feed.id }).update({ last_fetched_at: now, last_success_at: now, last_error: null, consecutive_failures: 0, next_fetch_at: nextFetch(ctx, now), date_updated: now });
      return 'not-modified';
    }
    const parsed = parseFeed(fetched.body, ctx.config.city.timeZone, limits.maxEvents);
    if (parsed.veventCount > limits.maxEvents) throw new FeedParseError(`The feed has ${parsed.veventCount} events; at most ${limits.maxEvents} can be imported from one feed.`);
    events = parsed.events;
    validators = { etag: fetched.etag, lastModified: fetched.lastModified };
  } catch (err) {
    if (!(err instanceof FeedFetchError || err instanceof FeedParseError)) throw err;
    await recordFailure(ctx, feed, err.message);
    return 'failed';
  }
  await applyEvents(ctx, feed, events);
  const now = ctx.now();
  await ctx.db('calendar_feeds').where({ id: feed.id }).update({
    etag: validators.etag,
    last_modified: validators.lastModified,
    last_fetched_at: now,
    last_success_at: now,
    last_error: null,
    consecutive_failures: 0,
    status: 'active',
    paused_reason: null,
    events_found: events.filter((e) => !e.cancelled).length,
    next_fetch_at: nextFetch(ctx, now),
    date_updated: now,
  });
  return 'updated';
}

/**
 * The sweep: every active feed whose time has come, claimed first (next_fetch_at moved on in
 * the same statement) so that two processes never fetch the same feed at once.
 */
export async function syncDueFeeds(ctx: SyncContext, batch = 20): Promise<number> {
  const now = ctx.now();
  const claimed: Array<{ id: number }> = await ctx.db('calendar_feeds')
    .whereIn('id', ctx.db('calendar_feeds').where('status', 'active').where('next_fetch_at', '<=', now).orderBy('next_fetch_at').limit(batch).select('id').forUpdate().skipLocked())
    .update({ next_fetch_at: nextFetch(ctx, now) })
    .returning('id');
  for (const { id } of claimed) {
    try {
      await syncFeed(ctx, Number(id));
    } catch (err) {
      ctx.logger.error({ err, feedId: id }, 'calendar feed sync failed; next time');
    }
  }
  return claimed.length;
}
