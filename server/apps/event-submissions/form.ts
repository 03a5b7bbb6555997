import moment from 'moment-timezone';
import { z } from 'zod';
import { LIMITS, SCHEDULE_TYPES } from '../../../shared/constants';
import type { FieldErrors } from '../../http/errors';
import type { IrregularDate, Schedule } from '../events/schedule';

// The add-event form (spec 1 §3 "Event form fields", rules of spec 1 §5), read from a
// multipart, urlencoded or JSON body. Errors are keyed as the form shows them: title,
// description, venueDisplayName, venueName, address, website, date, startTime, endTime,
// startDate, endDate, weekDays, image (and schedule_type for an unknown tab).
//
// Two steps: the body is read into one plain shape (first value of a repeated field, trimmed;
// the chosen schedule tab's fields), then a zod schema checks that shape. Each field's rules
// give its one message (the first that fails); the rules across fields (end after start, not
// over yet) are refinements of the object that holds those fields, so they are reported with
// the field errors, as the form shows them all at once.

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

// ## Step 1: the body, read into one shape

const CROP_FIELDS = ['hub_page_image_top', 'hub_page_image_left', 'box_width', 'box_height', 'thumbnail_width', 'thumbnail_height'] as const;

/** The schedule tab's fields: `weekly-start_date`, falling back to the plain `start_date`. */
function scheduleInput(form: RawForm) {
  const type = text(form, 'schedule_type') || 'single_day';
  const field = (name: string) => text(form, `${type}-${name}`) || text(form, name);
  const allDay = checked(form, `${type}-all_day`) || checked(form, 'all_day');
  const times = { allDay, startTime: field('start_time'), endTime: field('end_time') };
  if (type === 'irregular') {
    // The irregular formset: TOTAL_FORMS rows of a date and two times; blank or deleted rows are skipped.
    const total = Number(text(form, 'irregular-TOTAL_FORMS') || '0');
    const count = Number.isInteger(total) && total >= 0 ? Math.min(total, MAX_IRREGULAR_ROWS) : 0;
    const rows = Array.from({ length: count }, (_, i) => {
      const p = `irregular-${i}-`;
      return {
        label: count > 1 ? `Date ${i + 1}: ` : '',
        allDay,
        date: text(form, `${p}start_date`) || text(form, `${p}date`),
        startTime: text(form, `${p}start_time`),
        endTime: text(form, `${p}end_time`),
        deleted: checked(form, `${p}DELETE`),
      };
    }).filter((r) => !r.deleted && (r.date || r.startTime || r.endTime));
    return { schedule_type: type, allDay, rows };
  }
  if (type === 'single_day') return { schedule_type: type, ...times, date: field('date') || field('start_date') };
  const weekDays = [...new Set(list(form, `${type}-weekdays`).concat(list(form, 'weekdays')))];
  return { schedule_type: type, ...times, startDate: field('start_date'), endDate: field('end_date'), weekDays };
}

function readForm(form: RawForm) {
  const isMultipleVenues = checked(form, 'is_multiple_venues');
  const isVirtualEvent = checked(form, 'is_virtual_event');
  const listing = text(form, 'listing');
  return {
    title: text(form, 'title'),
    description: text(form, 'description'),
    place: {
      // CASE: multiple venues or a virtual event: venue, address and listing do not apply.
      placeless: isMultipleVenues || isVirtualEvent,
      isMultipleVenues,
      isVirtualEvent,
      listing,
      // With a listing chosen, the name shown is the typed one (or the plain venue name).
      venueDisplayName: listing ? text(form, 'venue_display_name') || text(form, 'venue_name') : '',
      venueName: listing ? '' : text(form, 'venue_name'),
      address: text(form, 'address'),
    },
    website: text(form, 'website'),
    image: {
      uploadedImageUrl: text(form, 'uploaded_image_url'),
      thumbnailImageUrl: text(form, 'thumbnail_image_url'),
      crop: Object.fromEntries(CROP_FIELDS.map((name) => [name, text(form, name)])),
    },
    schedule: scheduleInput(form),
  };
}

// ## Step 2: the rules

/** A message when the value breaks a rule, null when it keeps them all. */
type Rule = (value: string) => string | null;

/** A string field checked by its rules: the first one broken gives the field's message (prefixed by `label`). */
function ruled(...rules: Rule[]) {
  return z.string().superRefine((value, ctx) => {
    for (const rule of rules) {
      const message = rule(value);
      if (message) return void ctx.addIssue({ code: 'custom', message });
    }
  });
}

const required: Rule = (v) => (v ? null : messages.required);
const maxLength =
  (max: number): Rule =>
  (v) =>
    v.length > max ? messages.tooLong(max) : null;
const validDate: Rule = (v) => (parseDate(v) ? null : messages.invalidDate);
const validTime: Rule = (v) => (parseTime(v) ? null : messages.invalidTime);

/** Adds `message` for `key` unless a rule of that field has already said it. */
function fail(ctx: z.RefinementCtx, key: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [key], message });
}

function daysBetween(a: string, b: string): number {
  return moment.utc(b, DATE).diff(moment.utc(a, DATE), 'days');
}

/** A start and an end time, unless the event lasts all day; the end after the start. */
function timeRules(ctx: z.RefinementCtx, t: { allDay: boolean; startTime: string; endTime: string }, label = ''): void {
  if (t.allDay) return;
  for (const [key, value] of [['startTime', t.startTime], ['endTime', t.endTime]] as const) {
    const message = required(value) ?? validTime(value);
    if (message) fail(ctx, key, label + message);
  }
  const s = parseTime(t.startTime);
  const e = parseTime(t.endTime);
  if (s && e && e <= s) fail(ctx, 'endTime', label + messages.endTimeBeforeStart);
}

const placeSchema = z
  .object({
    placeless: z.boolean(),
    isMultipleVenues: z.boolean(),
    isVirtualEvent: z.boolean(),
    listing: z.string(),
    venueDisplayName: z.string(),
    venueName: z.string(),
    address: z.string(),
  })
  .superRefine((p, ctx) => {
    if (p.placeless) return;
    if (p.listing) {
      if (!/^\d{1,9}$/.test(p.listing) || Number(p.listing) < 1) fail(ctx, 'venueDisplayName', messages.listing);
      const tooLong = maxLength(LIMITS.eventVenueMax)(p.venueDisplayName);
      if (tooLong) fail(ctx, 'venueDisplayName', tooLong);
    } else {
      const message = required(p.venueName) ?? maxLength(LIMITS.eventVenueMax)(p.venueName);
      if (message) fail(ctx, 'venueName', message);
    }
    // A chosen listing brings its own address, so the field may stay empty then.
    const listingChosen = /^\d{1,9}$/.test(p.listing) && Number(p.listing) >= 1;
    if (!p.address && !listingChosen) fail(ctx, 'address', messages.required);
    else if (p.address.length > LIMITS.eventAddressMax) fail(ctx, 'address', messages.tooLong(LIMITS.eventAddressMax));
  });

const imageSchema = z
  .object({ uploadedImageUrl: z.string(), thumbnailImageUrl: z.string(), crop: z.record(z.string(), z.string()) })
  .superRefine((image, ctx) => {
    const badNumber = (raw: string) => !/^-?\d{1,5}(\.\d+)?$/.test(raw) || !Number.isFinite(Number(raw)) || Math.abs(Number(raw)) > 20_000;
    if (image.uploadedImageUrl && Object.values(image.crop).some((raw) => raw && badNumber(raw))) fail(ctx, 'image', messages.imageFields);
    else if (image.uploadedImageUrl.length > 1000 || image.thumbnailImageUrl.length > 1000) fail(ctx, 'image', messages.imageFields);
  });

const times = { allDay: z.boolean(), startTime: z.string(), endTime: z.string() };

function scheduleSchema(today: string) {
  const singleDay = z
    .object({ schedule_type: z.literal('single_day'), ...times, date: ruled(required, validDate) })
    .superRefine((s, ctx) => {
      timeRules(ctx, s);
      const date = parseDate(s.date);
      if (date && date < today) fail(ctx, 'date', messages.alreadyOver);
    });

  // day_range and weekly: a start and an end date, the same times each day.
  const range = <T extends 'day_range' | 'weekly'>(type: T) =>
    z
      .object({ schedule_type: z.literal(type), ...times, startDate: ruled(required, validDate), endDate: ruled(required, validDate), weekDays: z.array(z.string()) })
      .superRefine((s, ctx) => {
        timeRules(ctx, s);
        const start = parseDate(s.startDate);
        const end = parseDate(s.endDate);
        if (start && end) {
          if (end < start) {
            // Shown together, as the form shows start and end errors side by side.
            fail(ctx, 'startDate', messages.endDateBeforeStart);
            fail(ctx, 'endDate', messages.endDateBeforeStart);
          } else if (daysBetween(start, end) > MAX_SPAN_DAYS) fail(ctx, 'endDate', messages.tooLongRunning);
          else if (end < today) fail(ctx, 'endDate', messages.alreadyOver);
        }
        if (type !== 'weekly') return;
        if (!s.weekDays.length || s.weekDays.some((d) => !/^[0-6]$/.test(d))) return fail(ctx, 'weekDays', messages.weekDays);
        if (start && end && end >= start && daysBetween(start, end) < 6) {
          const present = new Set<number>();
          for (let d = moment.utc(start, DATE); !d.isAfter(moment.utc(end, DATE)); d.add(1, 'day')) present.add(d.day());
          if (!s.weekDays.some((w) => present.has(Number(w)))) fail(ctx, 'weekDays', messages.weekDaysOutOfRange);
        }
      });

  const irregularRow = z.object({ label: z.string(), ...times, date: z.string() }).superRefine((row, ctx) => {
    const message = required(row.date) ?? validDate(row.date);
    if (message) fail(ctx, 'date', row.label + message);
    timeRules(ctx, row, row.label);
  });
  const irregular = z
    .object({ schedule_type: z.literal('irregular'), allDay: z.boolean(), rows: z.array(irregularRow) })
    .superRefine((s, ctx) => {
      if (!s.rows.length) fail(ctx, 'date', messages.noDates);
    });

  return z.discriminatedUnion('schedule_type', [singleDay, range('day_range'), range('weekly'), irregular], { error: messages.scheduleType });
}

function eventFormSchema(ctx: ParseContext) {
  return z
    .object({
      title: ruled(required, maxLength(LIMITS.eventTitleMax)),
      description: ruled(required, maxLength(DESCRIPTION_MAX)),
      place: placeSchema,
      website: z.string().superRefine((v, ctx) => {
        const parsed = v ? websiteSchema.safeParse(v) : null;
        if (parsed && !parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0].message });
      }),
      image: imageSchema,
      schedule: scheduleSchema(ctx.today),
    })
    .check((payload) => {
      // The span of irregular dates is judged last, on a form that is otherwise right.
      const s = payload.value.schedule;
      if (payload.issues.length || s.schedule_type !== 'irregular') return;
      const dates = s.rows.map((r) => r.date).sort();
      const span = (message: string) => payload.issues.push({ code: 'custom', path: ['date'], message, input: s });
      if (dates[dates.length - 1] < ctx.today) span(messages.alreadyOver);
      if (daysBetween(dates[0], dates[dates.length - 1]) > MAX_SPAN_DAYS) span(messages.tooLongRunning);
    });
}

type CheckedInput = z.infer<ReturnType<typeof eventFormSchema>>;

/** The errors by the form's keys: the last name on an issue's path (a field, or the key a refinement names). */
function fieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const named = [...issue.path].reverse().find((p) => typeof p === 'string');
    const key = typeof named === 'string' ? named : 'non_field_errors';
    const list = (fields[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return fields;
}

function toSchedule(s: CheckedInput['schedule']): Schedule {
  const timesOf = (t: { allDay: boolean; startTime: string; endTime: string }) =>
    t.allDay ? { start_time: null, end_time: null } : { start_time: parseTime(t.startTime), end_time: parseTime(t.endTime) };
  switch (s.schedule_type) {
    case 'single_day':
      return { schedule_type: 'single_day', start_date: s.date, end_date: null, ...timesOf(s), all_day: s.allDay };
    case 'day_range':
    case 'weekly':
      return {
        schedule_type: s.schedule_type,
        start_date: s.startDate,
        end_date: s.endDate,
        ...timesOf(s),
        all_day: s.allDay,
        weekdays: s.schedule_type === 'weekly' ? s.weekDays.map(Number).sort() : null,
      };
    case 'irregular': {
      const dates: IrregularDate[] = s.rows.map((r) => ({ date: r.date, ...timesOf({ ...r, allDay: s.allDay }) }));
      dates.sort((a, b) => (a.date === b.date ? String(a.start_time).localeCompare(String(b.start_time)) : a.date.localeCompare(b.date)));
      return { schedule_type: 'irregular', start_date: dates[0].date, end_date: dates[dates.length - 1].date, all_day: s.allDay, dates };
    }
  }
}

function cropOf(image: CheckedInput['image']): Record<string, number> | null {
  if (!image.uploadedImageUrl) return null;
  return Object.fromEntries(Object.entries(image.crop).flatMap(([name, raw]) => (raw ? [[name, Math.round(Number(raw))]] : [])));
}

/** Reads and checks the whole form; the listing's existence and the image are checked by the service. */
export function parseEventForm(form: RawForm, ctx: ParseContext): ParseResult {
  const checked = eventFormSchema(ctx).safeParse(readForm(form));
  if (!checked.success) return { ok: false, errors: fieldErrors(checked.error) };
  const { title, description, place, website, image, schedule } = checked.data;
  const listingId = !place.placeless && place.listing ? Number(place.listing) : null;
  return {
    ok: true,
    form: {
      title,
      description,
      venueName: place.placeless ? '' : place.venueName,
      venueDisplayName: place.placeless ? '' : place.venueDisplayName,
      listingId,
      isMultipleVenues: place.isMultipleVenues,
      isVirtualEvent: place.isVirtualEvent,
      address: place.placeless ? '' : place.address,
      website: website ? websiteSchema.parse(website) : '',
      schedule: toSchedule(schedule),
      image: { uploadedImageUrl: image.uploadedImageUrl, thumbnailImageUrl: image.thumbnailImageUrl, crop: cropOf(image) },
    },
  };
}
