import type { Knex } from 'knex';
import moment from 'moment-timezone';
import { slugify } from '../../shared/format/text';
import { expandOccurrences, type Occurrence, type Schedule } from '../../server/apps/events/schedule';
import { insertBatches, insertReturningIds } from './batch';
import { readFestivalEvents, readLibraries, type FestivalEvent, type LibraryRow } from './data-files';
import type { ImagePool } from './images';
import type { ListingRef } from './listings';
import type { MemberRef } from './members';
import type { Rng } from './random';

// Events: the City of Toronto's real Festivals & Events listings, then generated events at
// real venues (library branches, bars, cafes) placed relative to the seed date, so that the
// coming 60 days always have single-day, day-range, weekly and irregular events to show.
// All schedule dates and times are Canada/Eastern wall-clock values (config.city.timeZone);
// occurrences are expanded by the events app's own expandOccurrences.

const DATE = 'YYYY-MM-DD';
const TIME = 'HH:mm:ss';
export const UPCOMING_WINDOW_DAYS = 60;

export interface EventDraft {
  row: Record<string, unknown>;
  schedule: Schedule;
}

export interface EventRef {
  id: number;
  title: string;
  scheduleType: string;
  /** The end of the last occurrence (or its start), for "is it still to come". */
  lastAt: Date | null;
}

// The City feed spells a few categories two ways.
const CATEGORY_ALIASES: Record<string, string> = { Celebration: 'Celebrations', '2SLGBTQ+': 'LGBTQ2S+', 'Farmers Market': "Farmers' Market", Running: 'Run/Walk' };

function price(value: FestivalEvent['price_cad']): number | null {
  if (value == null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n < 1_000_000 ? Math.round(n * 100) / 100 : null;
}

/**
 * The schedule of a City event from its start and end instants, in local terms: the same
 * local day (or an evening that ends after midnight) is a single day; anything longer is a
 * day range repeated daily between the start and end times.
 */
export function scheduleFromInstants(startIso: string, endIso: string | null, timeZone: string): Schedule {
  const start = moment(startIso).tz(timeZone);
  let end = endIso ? moment(endIso).tz(timeZone) : null;
  if (end && !end.isAfter(start)) end = null;
  const startDate = start.format(DATE);
  const allDay = start.format('HH:mm') === '00:00' && (!end || ['00:00', '23:59'].includes(end.format('HH:mm')));
  if (!end) return { schedule_type: 'single_day', start_date: startDate, start_time: allDay ? null : start.format(TIME), end_time: null, all_day: allDay };
  // An end at midnight belongs to the day before.
  if (end.format('HH:mm:ss') === '00:00:00') end = end.clone().subtract(1, 'second');
  const endDate = end.format(DATE);
  const hours = end.diff(start, 'hours', true);
  // The feed's end is the end of the last day; an end time equal to the start time says
  // nothing about the daily hours.
  const endTime = allDay || end.format('HH:mm') === start.format('HH:mm') ? null : end.format(TIME);
  const base = { start_time: allDay ? null : start.format(TIME), end_time: endTime, all_day: allDay };
  if (endDate === startDate || hours <= 14) return { schedule_type: 'single_day', start_date: startDate, ...base };
  return { schedule_type: 'day_range', start_date: startDate, end_date: endDate, ...base };
}

function cityEventDraft(e: FestivalEvent, index: number, rng: Rng, timeZone: string, now: Date, images: ImagePool): EventDraft {
  const r = rng.fork(`city-event:${index}`);
  const schedule = scheduleFromInstants(e.start, e.end, timeZone);
  const address = [e.street_address, e.locality && e.locality !== e.street_address ? e.locality : null, e.postal_code].filter(Boolean).join(', ');
  const url = e.url ?? '';
  const startMs = new Date(e.start).getTime();
  // Listed some weeks before it starts, never after the seed date.
  const created = new Date(Math.min(now.getTime(), startMs - r.int(7, 60) * 86_400_000));
  return {
    schedule,
    row: {
      slug: slugify(e.name),
      title: e.name.slice(0, 255),
      description: e.description ?? '',
      venue_name: (e.venue_name ?? '').slice(0, 255),
      address: address.slice(0, 255),
      latitude: e.latitude,
      longitude: e.longitude,
      is_virtual_event: e.categories.includes('Virtual/Online Event'),
      website: url.length <= 500 ? url : '',
      categories: [...new Set(e.categories.map((c) => CATEGORY_ALIASES[c] ?? c))],
      is_free: e.is_free,
      price_cad: price(e.price_cad),
      organizer_name: (e.organizer_name ?? '').slice(0, 255),
      // Never hot-linked: a placeholder until `npm run events:import-images` copies the
      // original into our media store; the original is kept for that and for the credit.
      image_url: null,
      image_key: r.pick(images.events),
      image_source_url: e.image,
      image_credit: e.image ? (e.organizer_name ? `${e.organizer_name.slice(0, 200)}, via City of Toronto Festivals & Events` : 'City of Toronto Festivals & Events') : null,
      source: 'city_of_toronto',
      source_url: url.slice(0, 1000),
      status: 'approved',
      date_created: created,
      date_updated: created,
    },
  };
}

function scheduleColumns(s: Schedule) {
  const dates = s.schedule_type === 'irregular' ? (s.dates ?? []).map((d) => d.date).sort() : [];
  return {
    schedule_type: s.schedule_type,
    start_date: dates[0] ?? s.start_date,
    end_date: dates.length ? dates[dates.length - 1] : (s.end_date ?? null),
    start_time: s.start_time ?? (dates.length ? s.dates![0].start_time : null),
    end_time: s.end_time ?? (dates.length ? s.dates![0].end_time : null),
    all_day: Boolean(s.all_day),
    weekdays: s.schedule_type === 'weekly' ? s.weekdays : null,
  };
}

// Generated programmes. Titles name the real venue; descriptions are generic on purpose.
const LIBRARY_WEEKLY = [
  { title: 'Family Storytime', categories: ['Family/Children', 'Literary'], times: ['10:30', '11:15'] },
  { title: 'ESL Conversation Circle', categories: ['Seminars/Workshops'], times: ['18:00', '19:30'] },
  { title: 'Homework Help', categories: ['Family/Children'], times: ['16:00', '18:00'] },
  { title: 'Chess Club', categories: ['Other'], times: ['17:00', '19:00'] },
  { title: 'Knitting Circle', categories: ['Artisan'], times: ['14:00', '16:00'] },
  { title: 'Tech Help Drop-in', categories: ['Seminars/Workshops'], times: ['13:00', '15:00'] },
  { title: 'Teen Gaming Night', categories: ['Family/Children'], times: ['18:00', '20:00'] },
  { title: 'Seniors\' Book Club', categories: ['Literary'], times: ['11:00', '12:30'] },
];
const LIBRARY_IRREGULAR = [
  { title: 'Film Night', categories: ['Film'], times: ['18:30', '20:30'] },
  { title: 'Author Talk Series', categories: ['Literary', 'Talks'], times: ['19:00', '20:30'] },
  { title: 'Maker Space Workshops', categories: ['Seminars/Workshops'], times: ['14:00', '16:00'] },
  { title: 'Local History Walks', categories: ['History', 'Walking', 'Tour'], times: ['10:00', '12:00'] },
];
const VENUE_SINGLE = [
  { title: 'Trivia Night', types: ['bars'], categories: ['Trivia', 'Nightlife'], times: ['19:30', '22:00'] },
  { title: 'Live Jazz', types: ['bars', 'restaurants'], categories: ['Music', 'Live Performances'], times: ['20:00', '23:00'] },
  { title: 'Stand-up Comedy Night', types: ['bars'], categories: ['Comedy', 'Live Performances'], times: ['21:00', '23:00'] },
  { title: 'Latte Art Throwdown', types: ['cafes'], categories: ['Food/Culinary'], times: ['18:00', '21:00'] },
  { title: 'Sourdough Workshop', types: ['bakeries'], categories: ['Food/Culinary', 'Seminars/Workshops'], times: ['10:00', '13:00'] },
  { title: 'Chef\'s Tasting Dinner', types: ['restaurants'], categories: ['Food/Culinary'], times: ['18:30', '22:00'] },
  { title: 'Open Mic', types: ['cafes', 'bars'], categories: ['Music', 'Live Performances'], times: ['19:00', '22:00'] },
];
const LIBRARY_SINGLE = [
  { title: 'Resume Writing Workshop', categories: ['Seminars/Workshops'], times: ['18:00', '19:30'] },
  { title: 'Meet the Author', categories: ['Literary', 'Talks'], times: ['19:00', '20:30'] },
  { title: 'Kids\' Science Hour', categories: ['Family/Children'], times: ['11:00', '12:00'] },
  { title: 'Newcomers Information Session', categories: ['Seminars/Workshops'], times: ['14:00', '15:30'] },
];
const RANGE_EVENTS = [
  { title: 'Winter Lights Walk', categories: ['Arts/Exhibits', 'Walking'], times: ['17:00', '22:00'] },
  { title: 'Holiday Makers Market', categories: ['Artisan', 'Celebrations'], times: ['11:00', '19:00'] },
  { title: 'Neighbourhood Photo Exhibit', categories: ['Arts/Exhibits'], times: ['10:00', '18:00'] },
  { title: 'Restaurant Week', categories: ['Food/Culinary'], times: ['11:30', '22:00'] },
  { title: 'Indie Film Festival', categories: ['Film'], times: ['13:00', '23:00'] },
  { title: 'Craft Beer Festival', categories: ['Food/Culinary', 'Nightlife'], times: ['12:00', '22:00'] },
];

function libraryVenue(l: LibraryRow) {
  return { venue_name: `${l.branch_name} Library`.slice(0, 255), address: l.address.slice(0, 255), latitude: l.latitude, longitude: l.longitude, website: l.website };
}

function generatedRow(r: Rng, title: string, venue: { venue_name: string; address: string; latitude: number; longitude: number; website?: string }, categories: string[], description: string, now: Date, images: ImagePool, extra: Record<string, unknown> = {}) {
  const free = r.chance(0.6);
  const created = new Date(now.getTime() - r.int(3, 40) * 86_400_000);
  return {
    slug: slugify(title),
    title: title.slice(0, 255),
    description,
    venue_name: venue.venue_name,
    address: venue.address,
    latitude: venue.latitude,
    longitude: venue.longitude,
    website: venue.website ?? '',
    categories,
    is_free: free,
    price_cad: free ? null : r.pick([5, 10, 12, 15, 20, 25, 35]),
    organizer_name: venue.venue_name,
    image_key: r.pick(images.events),
    source: 'editorial',
    status: 'approved',
    date_created: created,
    date_updated: created,
    ...extra,
  };
}

/** Generated events around the seed date: every schedule type, every week of the window. */
export function generatedEventDrafts(opts: { rng: Rng; now: Date; timeZone: string; listings: ListingRef[]; members: MemberRef[]; images: ImagePool }): EventDraft[] {
  const { now, timeZone, images } = opts;
  const today = moment(now).tz(timeZone).startOf('day');
  const day = (offset: number) => today.clone().add(offset, 'days').format(DATE);
  const libraries = readLibraries();
  const venuesOf = (types: string[]) => opts.listings.filter((l) => types.includes(l.type) && l.latitude);
  const drafts: EventDraft[] = [];

  // Weekly library programmes, running from a month ago to two to four months ahead.
  for (let i = 0; i < 30; i++) {
    const r = opts.rng.fork(`weekly:${i}`);
    const p = LIBRARY_WEEKLY[i % LIBRARY_WEEKLY.length];
    const lib = r.pick(libraries);
    const weekdays = [...new Set([r.int(0, 6), ...(r.chance(0.3) ? [r.int(0, 6)] : [])])].sort();
    drafts.push({
      schedule: { schedule_type: 'weekly', start_date: day(-r.int(0, 30)), end_date: day(r.int(UPCOMING_WINDOW_DAYS, 120)), weekdays, start_time: p.times[0], end_time: p.times[1] },
      row: generatedRow(r, `${p.title} at ${lib.branch_name} Library`, libraryVenue(lib), p.categories, `${p.title} every week at the ${lib.branch_name} branch of Toronto Public Library. Free; everyone welcome, no registration needed.`, now, images, { is_free: true, price_cad: null }),
    });
  }
  // Irregular series: three to six dates inside the window, each with the same times.
  for (let i = 0; i < 16; i++) {
    const r = opts.rng.fork(`irregular:${i}`);
    const p = LIBRARY_IRREGULAR[i % LIBRARY_IRREGULAR.length];
    const lib = r.pick(libraries);
    const offsets = [...new Set(Array.from({ length: r.int(3, 6) }, () => r.int(0, UPCOMING_WINDOW_DAYS - 1)))].sort((a, b) => a - b);
    drafts.push({
      schedule: { schedule_type: 'irregular', start_date: day(offsets[0]), dates: offsets.map((o) => ({ date: day(o), start_time: p.times[0], end_time: p.times[1] })) },
      row: generatedRow(r, `${p.title} at ${lib.branch_name} Library`, libraryVenue(lib), p.categories, `A series of ${offsets.length} sessions at the ${lib.branch_name} branch of Toronto Public Library. Drop in to one or all of them.`, now, images),
    });
  }
  // Single-day events, spread so that every few days of the window has some.
  for (let i = 0; i < 48; i++) {
    const r = opts.rng.fork(`single:${i}`);
    const offset = Math.min(UPCOMING_WINDOW_DAYS - 1, Math.floor((i * UPCOMING_WINDOW_DAYS) / 48) + r.int(0, 1));
    const atLibrary = i % 3 === 0;
    let row: Record<string, unknown>;
    let times: string[];
    if (atLibrary) {
      const p = r.pick(LIBRARY_SINGLE);
      const lib = r.pick(libraries);
      times = p.times;
      row = generatedRow(r, `${p.title} at ${lib.branch_name} Library`, libraryVenue(lib), p.categories, `${p.title} at the ${lib.branch_name} branch of Toronto Public Library.`, now, images, { is_free: true, price_cad: null });
    } else {
      const p = r.pick(VENUE_SINGLE);
      const venues = venuesOf(p.types);
      const v = venues.length ? r.pick(venues) : undefined;
      times = p.times;
      const venue = v ? { venue_name: v.name, address: v.address, latitude: v.latitude, longitude: v.longitude } : libraryVenue(r.pick(libraries));
      row = generatedRow(r, `${p.title} at ${venue.venue_name}`, venue, p.categories, `${p.title} at ${venue.venue_name}, ${venue.address}. Arrive early; seating is first come, first served.`, now, images, { listing_id: v?.id ?? null });
    }
    drafts.push({ schedule: { schedule_type: 'single_day', start_date: day(offset), start_time: times[0], end_time: times[1] }, row });
  }
  // Day ranges: festivals and exhibits of two days to three weeks, overlapping the window.
  for (let i = 0; i < 14; i++) {
    const r = opts.rng.fork(`range:${i}`);
    const p = RANGE_EVENTS[i % RANGE_EVENTS.length];
    const start = r.int(-10, UPCOMING_WINDOW_DAYS - 5);
    const candidates = venuesOf(['restaurants', 'bars', 'cafes', 'bakeries']);
    const hoodVenue = candidates.length ? r.pick(candidates) : undefined;
    const venue = hoodVenue ? { venue_name: hoodVenue.name, address: hoodVenue.address, latitude: hoodVenue.latitude, longitude: hoodVenue.longitude } : libraryVenue(r.pick(libraries));
    drafts.push({
      schedule: { schedule_type: 'day_range', start_date: day(start), end_date: day(start + r.int(1, 20)), start_time: p.times[0], end_time: p.times[1] },
      row: generatedRow(r, `${p.title} at ${venue.venue_name}`, venue, p.categories, `${p.title}: several days of programming at ${venue.venue_name}, ${venue.address}. Check the schedule and come back more than once.`, now, images, { listing_id: hoodVenue?.id ?? null }),
    });
  }
  // A few member submissions waiting for (or refused by) an editor.
  for (let i = 0; i < 7 && opts.members.length; i++) {
    const r = opts.rng.fork(`submitted:${i}`);
    const member = r.pick(opts.members);
    const lib = r.pick(libraries);
    const offset = r.int(3, UPCOMING_WINDOW_DAYS - 1);
    const title = r.pick(['Community Clean-up', 'Neighbourhood Potluck', 'Charity Fun Run', 'Pop-up Art Sale', 'Board Game Meetup']);
    drafts.push({
      schedule: { schedule_type: 'single_day', start_date: day(offset), start_time: '10:00', end_time: '13:00' },
      row: generatedRow(r, `${title} near ${lib.branch_name}`, libraryVenue(lib), ['Charity/Cause'], `Submitted by a member: ${title.toLowerCase()} near the ${lib.branch_name} library.`, now, images, {
        source: 'member',
        submitted_by: member.id,
        status: i < 5 ? 'pending' : 'rejected',
        moderation_note: i < 5 ? '' : 'Duplicate of an existing listing.',
      }),
    });
  }
  return drafts;
}

export function cityEventDrafts(opts: { rng: Rng; now: Date; timeZone: string; images: ImagePool; limit?: number }): EventDraft[] {
  return readFestivalEvents()
    .slice(0, opts.limit ?? undefined)
    .map((e, i) => cityEventDraft(e, i, opts.rng, opts.timeZone, opts.now, opts.images));
}

/** Inserts events and their occurrences; answers refs in draft order. */
export async function insertEvents(db: Knex, drafts: EventDraft[], timeZone: string): Promise<EventRef[]> {
  const expanded: Occurrence[][] = drafts.map((d) => expandOccurrences(d.schedule, timeZone));
  const rows = drafts.map((d) => ({ ...d.row, ...scheduleColumns(d.schedule) }));
  const ids = await insertReturningIds(db, 'events', rows, 500);
  // The same rows replaceOccurrences (server/apps/events/occurrence-queries.ts) writes, inserted in
  // batches: these events are new, so there is nothing to replace, and one transaction per
  // event (1,800 of them) took most of this phase's time on PGlite.
  const occurrenceRows = expanded.flatMap((list, i) => list.map((o) => ({ event_id: ids[i], local_date: o.local_date, starts_at: o.starts_at, ends_at: o.ends_at, all_day: o.all_day })));
  await insertBatches(db, 'event_occurrences', occurrenceRows, 2000);
  return drafts.map((d, i) => {
    const last = expanded[i][expanded[i].length - 1];
    return { id: ids[i], title: String(d.row.title), scheduleType: d.schedule.schedule_type, lastAt: last ? (last.ends_at ?? last.starts_at) : null };
  });
}
