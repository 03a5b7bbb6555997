import moment from 'moment-timezone';
import { z } from 'zod';
import { LIMITS, SCHEDULE_TYPES, type ScheduleType } from '../../../shared/constants';
import type { FieldErrors } from '../../http/errors';
import type { IrregularDate, Schedule } from '../events/schedule';

// The add-event form (spec 1 §3 "Event form fields", rules of spec 1 §5), read from a
// multipart, urlencoded or JSON body. Errors are keyed as the form shows them: title,
// description, venueDisplayName, venueName, address, website, date, startTime, endTime,
// startDate, endDate, weekDays, image (and schedule_type for an unknown tab).

export type RawForm = Record<string, unknown>;

export const messages = {
  required: 'This field is required.',
  tooLong: (n: number) => `Ensure this field has no more than ${n} characters.`,
  invalidDate: 'Enter a valid date (YYYY-MM-DD).',
  invalidTime: 'Enter a valid time, like 7:30 PM or 19:30.',
  endTimeBeforeStart: 'The end time must be after the start time.',
  endDateBeforeStart: 'The end date must be on or after the start date.',
  tooLongRunning: 'An event can run for at most two years.',
  alreadyOver: 'This event has already ended.',
  weekDays: 'Choose at least one day of the week.',
  weekDaysOutOfRange: 'None of the chosen days fall between the start and end dates.',
  noDates: 'Add at least one date.',
  invalidUrl: 'Enter a valid URL.',
  listing: 'Choose a place from the suggestions, or type the venue name.',
  scheduleType: `Choose one of: ${SCHEDULE_TYPES.join(', ')}.`,
  imageFields: 'The image position is not valid; upload the image again.',
};

export const DESCRIPTION_MAX = 20_000;
export const WEBSITE_MAX = 500;
/** The irregular formset's rows; more than this is not a form a person filled in. */
export const MAX_IRREGULAR_ROWS = 100;
/** Two years of days: expandOccurrences stops at MAX_OCCURRENCES anyway. */
export const MAX_SPAN_DAYS = 731;

const DATE = 'YYYY-MM-DD';
const TIME_FORMATS = ['h:mm A', 'h:mm a', 'h:mmA', 'h:mma', 'HH:mm', 'H:mm', 'HH:mm:ss'];

/** A text value from any body parser: a repeated field counts by its first value. */
export function text(form: RawForm, name: string): string {
  const v = form[name];
  const first = Array.isArray(v) ? v[0] : v;
  if (first === undefined || first === null || first === false) return '';
  if (first === true) return 'on';
  return typeof first === 'string' || typeof first === 'number' ? String(first).trim() : '';
}

export function list(form: RawForm, name: string): string[] {
  const v = form[name];
  const values = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  return values.filter((x) => typeof x === 'string' || typeof x === 'number').map((x) => String(x).trim());
}

export function checked(form: RawForm, name: string): boolean {
  return /^(on|true|1|yes)$/i.test(text(form, name));
}

export function parseDate(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const m = moment.utc(value, DATE, true);
  return m.isValid() ? value : null;
}

/** 'h:mm A' as the pickers write it, or HH:mm as the create form does; answers HH:mm. */
export function parseTime(value: string): string | null {
  if (!value || value.length > 11) return null;
  const m = moment.utc(value.toUpperCase(), TIME_FORMATS, true);
  return m.isValid() ? m.format('HH:mm') : null;
}

const websiteSchema = z
  .string()
  .max(WEBSITE_MAX, messages.tooLong(WEBSITE_MAX))
  .transform((v) => (/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `http://${v}`))
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && /\.[a-z]{2,}$/i.test(u.hostname) && !/\s/.test(v);
    } catch {
      return false;
    }
  }, messages.invalidUrl);

export interface ImageFields {
  uploadedImageUrl: string;
  thumbnailImageUrl: string;
  crop: Record<string, number> | null;
}

export interface EventForm {
  title: string;
  description: string;
  venueName: string;
  venueDisplayName: string;
  listingId: number | null;
  isMultipleVenues: boolean;
  isVirtualEvent: boolean;
  address: string;
  website: string;
  schedule: Schedule;
  image: ImageFields;
}

export interface ParseContext {
  /** Today in the city's time zone, YYYY-MM-DD: an event that has ended cannot be submitted. */
  today: string;
}

export type ParseResult = { ok: true; form: EventForm } | { ok: false; errors: FieldErrors };

class Errors {
  readonly fields: FieldErrors = {};
  add(key: string, message: string): void {
    const list = (this.fields[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  get any(): boolean {
    return Object.keys(this.fields).length > 0;
  }
}

function requiredText(form: RawForm, name: string, key: string, max: number, errors: Errors): string {
  const value = text(form, name);
  if (!value) errors.add(key, messages.required);
  else if (value.length > max) errors.add(key, messages.tooLong(max));
  return value;
}

/** The field of the chosen tab: `weekly-start_date`, falling back to the plain `start_date`. */
function scheduleField(form: RawForm, type: ScheduleType, name: string): string {
  return text(form, `${type}-${name}`) || text(form, name);
}

function readTimes(start: string, end: string, allDay: boolean, errors: Errors, label = ''): { start: string | null; end: string | null } {
  if (allDay) return { start: null, end: null };
  const s = parseTime(start);
  const e = parseTime(end);
  if (!start) errors.add('startTime', label + messages.required);
  else if (!s) errors.add('startTime', label + messages.invalidTime);
  if (!end) errors.add('endTime', label + messages.required);
  else if (!e) errors.add('endTime', label + messages.invalidTime);
  if (s && e && e <= s) errors.add('endTime', label + messages.endTimeBeforeStart);
  return { start: s, end: e };
}

function readDate(value: string, key: string, errors: Errors, label = ''): string | null {
  if (!value) {
    errors.add(key, label + messages.required);
    return null;
  }
  const date = parseDate(value);
  if (!date) errors.add(key, label + messages.invalidDate);
  return date;
}

function daysBetween(a: string, b: string): number {
  return moment.utc(b, DATE).diff(moment.utc(a, DATE), 'days');
}

function readSchedule(form: RawForm, errors: Errors, ctx: ParseContext): Schedule | null {
  const rawType = text(form, 'schedule_type') || 'single_day';
  if (!(SCHEDULE_TYPES as readonly string[]).includes(rawType)) {
    errors.add('schedule_type', messages.scheduleType);
    return null;
  }
  const type = rawType as ScheduleType;
  const allDay = checked(form, `${type}-all_day`) || checked(form, 'all_day');

  if (type === 'irregular') return readIrregular(form, allDay, errors, ctx);

  if (type === 'single_day') {
    const date = readDate(scheduleField(form, type, 'date') || scheduleField(form, type, 'start_date'), 'date', errors);
    const times = readTimes(scheduleField(form, type, 'start_time'), scheduleField(form, type, 'end_time'), allDay, errors);
    if (date && date < ctx.today) errors.add('date', messages.alreadyOver);
    if (!date || errors.any) return null;
    return { schedule_type: type, start_date: date, end_date: null, start_time: times.start, end_time: times.end, all_day: allDay };
  }

  // day_range and weekly: a start and an end date, the same times each day.
  const start = readDate(scheduleField(form, type, 'start_date'), 'startDate', errors);
  const end = readDate(scheduleField(form, type, 'end_date'), 'endDate', errors);
  const times = readTimes(scheduleField(form, type, 'start_time'), scheduleField(form, type, 'end_time'), allDay, errors);
  if (start && end) {
    if (end < start) {
      // Shown together, as the form shows start and end errors side by side.
      errors.add('startDate', messages.endDateBeforeStart);
      errors.add('endDate', messages.endDateBeforeStart);
    } else if (daysBetween(start, end) > MAX_SPAN_DAYS) errors.add('endDate', messages.tooLongRunning);
    else if (end < ctx.today) errors.add('endDate', messages.alreadyOver);
  }
  let weekdays: number[] | null = null;
  if (type === 'weekly') {
    const raw = list(form, `${type}-weekdays`).concat(list(form, 'weekdays'));
    const days = [...new Set(raw)];
    if (!days.length) errors.add('weekDays', messages.weekDays);
    else if (days.some((d) => !/^[0-6]$/.test(d))) errors.add('weekDays', messages.weekDays);
    else weekdays = days.map(Number).sort();
    if (weekdays && start && end && end >= start && daysBetween(start, end) < 6) {
      const present = new Set<number>();
      for (let d = moment.utc(start, DATE); !d.isAfter(moment.utc(end, DATE)); d.add(1, 'day')) present.add(d.day());
      if (!weekdays.some((w) => present.has(w))) errors.add('weekDays', messages.weekDaysOutOfRange);
    }
  }
  if (!start || !end || errors.any) return null;
  return { schedule_type: type, start_date: start, end_date: end, start_time: times.start, end_time: times.end, all_day: allDay, weekdays };
}

/** The irregular formset: TOTAL_FORMS rows of a date and two times; blank rows are skipped. */
function readIrregular(form: RawForm, allDay: boolean, errors: Errors, ctx: ParseContext): Schedule | null {
  const total = Number(text(form, 'irregular-TOTAL_FORMS') || '0');
  const rows = Number.isInteger(total) && total >= 0 ? Math.min(total, MAX_IRREGULAR_ROWS) : 0;
  const dates: IrregularDate[] = [];
  let filled = 0;
  for (let i = 0; i < rows; i++) {
    const p = `irregular-${i}-`;
    const date = text(form, `${p}start_date`) || text(form, `${p}date`);
    const start = text(form, `${p}start_time`);
    const end = text(form, `${p}end_time`);
    if (checked(form, `${p}DELETE`) || (!date && !start && !end)) continue;
    filled += 1;
    const label = rows > 1 ? `Date ${i + 1}: ` : '';
    const day = readDate(date, 'date', errors, label);
    const times = readTimes(start, end, allDay, errors, label);
    if (day) dates.push({ date: day, start_time: times.start, end_time: times.end });
  }
  if (!filled) {
    errors.add('date', messages.noDates);
    return null;
  }
  if (errors.any) return null;
  dates.sort((a, b) => (a.date === b.date ? String(a.start_time).localeCompare(String(b.start_time)) : a.date.localeCompare(b.date)));
  const first = dates[0].date;
  const last = dates[dates.length - 1].date;
  if (last < ctx.today) errors.add('date', messages.alreadyOver);
  if (daysBetween(first, last) > MAX_SPAN_DAYS) errors.add('date', messages.tooLongRunning);
  if (errors.any) return null;
  return { schedule_type: 'irregular', start_date: first, end_date: last, all_day: allDay, dates };
}

const CROP_FIELDS = ['hub_page_image_top', 'hub_page_image_left', 'box_width', 'box_height', 'thumbnail_width', 'thumbnail_height'] as const;

function readImageFields(form: RawForm, errors: Errors): ImageFields {
  const uploadedImageUrl = text(form, 'uploaded_image_url');
  const thumbnailImageUrl = text(form, 'thumbnail_image_url');
  let crop: Record<string, number> | null = null;
  if (uploadedImageUrl) {
    crop = {};
    for (const name of CROP_FIELDS) {
      const raw = text(form, name);
      if (!raw) continue;
      const n = Number(raw);
      if (!/^-?\d{1,5}(\.\d+)?$/.test(raw) || !Number.isFinite(n) || Math.abs(n) > 20_000) errors.add('image', messages.imageFields);
      else crop[name] = Math.round(n);
    }
  }
  if (uploadedImageUrl.length > 1000 || thumbnailImageUrl.length > 1000) errors.add('image', messages.imageFields);
  return { uploadedImageUrl, thumbnailImageUrl, crop };
}

/** Reads and checks the whole form; the listing's existence and the image are checked by the service. */
export function parseEventForm(form: RawForm, ctx: ParseContext): ParseResult {
  const errors = new Errors();
  const title = requiredText(form, 'title', 'title', LIMITS.eventTitleMax, errors);
  const description = requiredText(form, 'description', 'description', DESCRIPTION_MAX, errors);
  const isMultipleVenues = checked(form, 'is_multiple_venues');
  const isVirtualEvent = checked(form, 'is_virtual_event');
  // CASE: multiple venues or a virtual event: venue, address and listing do not apply.
  const placeless = isMultipleVenues || isVirtualEvent;

  let venueName = '';
  let venueDisplayName = '';
  let listingId: number | null = null;
  let address = '';
  if (!placeless) {
    const listing = text(form, 'listing');
    if (listing) {
      if (!/^\d{1,9}$/.test(listing) || Number(listing) < 1) errors.add('venueDisplayName', messages.listing);
      else listingId = Number(listing);
      venueDisplayName = text(form, 'venue_display_name') || text(form, 'venue_name');
      if (venueDisplayName.length > LIMITS.eventVenueMax) errors.add('venueDisplayName', messages.tooLong(LIMITS.eventVenueMax));
    } else {
      venueName = requiredText(form, 'venue_name', 'venueName', LIMITS.eventVenueMax, errors);
    }
    address = text(form, 'address');
    // A chosen listing brings its own address, so the field may stay empty then.
    if (!address && listingId === null) errors.add('address', messages.required);
    else if (address.length > LIMITS.eventAddressMax) errors.add('address', messages.tooLong(LIMITS.eventAddressMax));
  }

  let website = text(form, 'website');
  if (website) {
    const parsed = websiteSchema.safeParse(website);
    if (parsed.success) website = parsed.data;
    else errors.add('website', parsed.error.issues[0].message);
  }
  const image = readImageFields(form, errors);
  const schedule = readSchedule(form, errors, ctx);
  if (errors.any || !schedule) return { ok: false, errors: errors.fields };
  return {
    ok: true,
    form: { title, description, venueName, venueDisplayName, listingId, isMultipleVenues, isVirtualEvent, address, website, schedule, image },
  };
}
