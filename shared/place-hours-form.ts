import { HOLIDAY_POLICIES, placeHoursSchema, WEEKDAYS, type HolidayPolicy, type HoursRange, type PlaceHours, type Weekday } from './place-hours';

// The places desk's hours as plain form fields that work without JavaScript (issue 39): one text
// field a weekday ("11:30-14:30, 17:00-02:00" or "closed"), the holiday choice and its ranges,
// a temporary closure, and "hours not known". hoursFromForm reads them into a PlaceHours checked
// by placeHoursSchema, with each error on the field that holds it; hoursToForm fills the form
// back; describeHoursChange is the revision line ("hours Tue 9am–5pm → 10am–6pm").

export const HOURS_DAY_FIELDS: Record<Weekday, string> = {
  mon: 'hours_mon',
  tue: 'hours_tue',
  wed: 'hours_wed',
  thu: 'hours_thu',
  fri: 'hours_fri',
  sat: 'hours_sat',
  sun: 'hours_sun',
};

export const HOURS_FIELDS = [
  ...WEEKDAYS.map((d) => HOURS_DAY_FIELDS[d]),
  'hours_holidays',
  'hours_holiday_ranges',
  'hours_closure_from',
  'hours_closure_until',
  'hours_closure_note',
  'hours_unknown',
] as const;

export const DAY_SHORT: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

export type HoursFormResult = { ok: true; hours: PlaceHours | null } | { ok: false; errors: Record<string, string> };

const CLOSED_WORDS = /^(closed|none|-)$/i;
// "9", "9:30", "09:30", "9am", "9:30 pm"; "24:00" for midnight at the end of a day.
const TIME_WORDS = /^(\d{1,2})(?::?(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/i;

function readTime(text: string): string | null {
  const m = TIME_WORDS.exec(text.trim());
  if (!m) return null;
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase().replace(/\./g, '');
  if (half) {
    if (h < 1 || h > 12) return null;
    if (half === 'am' && h === 12) h = 0;
    if (half === 'pm' && h !== 12) h += 12;
  }
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) return null;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

const RANGE_MESSAGE = 'Write the hours as 11:30-14:30, 17:00-02:00 (several ranges separated by commas), or "closed".';

/** "11:30-14:30, 17:00-02:00" → ranges; "" or "closed" → []; null when it does not read. */
export function readRanges(text: string): HoursRange[] | null {
  const t = text.trim();
  if (t === '' || CLOSED_WORDS.test(t)) return [];
  const ranges: HoursRange[] = [];
  for (const part of t.split(/[,;]/)) {
    const ends = part.trim().split(/\s*(?:-|–|—|\bto\b)\s*/i);
    if (ends.length !== 2) return null;
    const opens = readTime(ends[0]);
    const closes = readTime(ends[1]);
    if (!opens || !closes || opens === '24:00') return null;
    ranges.push({ opens, closes });
  }
  return ranges;
}

/** Ranges as the form shows them: "11:30-14:30, 17:00-02:00", "closed" when none. */
export function rangesToText(ranges: HoursRange[] | undefined): string {
  return ranges?.length ? ranges.map((r) => `${r.opens}-${r.closes}`).join(', ') : 'closed';
}

/** A schema path (weekly.mon.0.opens, holidayRanges, closure.until) → the form field holding it. */
function fieldOfPath(path: ReadonlyArray<PropertyKey>): string {
  const [head, second] = path.map(String);
  if (head === 'weekly' && second && (WEEKDAYS as readonly string[]).includes(second)) return HOURS_DAY_FIELDS[second as Weekday];
  if (head === 'holidayRanges') return 'hours_holiday_ranges';
  if (head === 'holidays') return 'hours_holidays';
  if (head === 'closure') return second === 'until' ? 'hours_closure_until' : second === 'note' ? 'hours_closure_note' : 'hours_closure_from';
  return 'hours_mon';
}

/** The form's fields as hours: null when "hours not known" is ticked and no day is given. */
export function hoursFromForm(fields: Record<string, string | undefined>): HoursFormResult {
  const value = (name: string) => (fields[name] ?? '').trim();
  const errors: Record<string, string> = {};
  const unknown = value('hours_unknown') !== '';
  const anyDay = WEEKDAYS.some((d) => value(HOURS_DAY_FIELDS[d]) !== '');
  if (unknown) {
    if (anyDay) return { ok: false, errors: { hours_unknown: 'Untick "hours not known", or clear the days\' hours.' } };
    return { ok: true, hours: null };
  }
  if (!anyDay) return { ok: false, errors: { hours_mon: 'Give the hours of at least one day ("closed" for a closed day), or tick "hours not known".' } };

  const weekly: PlaceHours['weekly'] = {};
  for (const d of WEEKDAYS) {
    const ranges = readRanges(value(HOURS_DAY_FIELDS[d]));
    if (ranges === null) errors[HOURS_DAY_FIELDS[d]] = RANGE_MESSAGE;
    else if (ranges.length) weekly[d] = ranges;
  }
  const holidays = (value('hours_holidays') || 'usual') as HolidayPolicy;
  if (!(HOLIDAY_POLICIES as readonly string[]).includes(holidays)) errors.hours_holidays = `Select a valid choice: ${HOLIDAY_POLICIES.join(', ')}.`;
  let holidayRanges: HoursRange[] | undefined;
  if (holidays === 'hours') {
    const r = readRanges(value('hours_holiday_ranges'));
    if (r === null) errors.hours_holiday_ranges = RANGE_MESSAGE;
    else holidayRanges = r;
  }
  const from = value('hours_closure_from');
  const until = value('hours_closure_until');
  const note = value('hours_closure_note');
  if (!from && (until || note)) errors.hours_closure_from = 'Give the first day of the closure.';
  if (Object.keys(errors).length) return { ok: false, errors };

  const candidate: PlaceHours = { weekly, holidays, ...(holidayRanges ? { holidayRanges } : {}), ...(from ? { closure: { from, until: until || null, ...(note ? { note } : {}) } } : {}) };
  const parsed = placeHoursSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  return { ok: true, hours: parsed.data as PlaceHours };
}

/** The form's fields for some hours (null: "hours not known" ticked, days empty). */
export function hoursToForm(hours: PlaceHours | null): Record<string, string> {
  const form: Record<string, string> = Object.fromEntries(HOURS_FIELDS.map((f) => [f, '']));
  form.hours_holidays = 'usual';
  if (!hours) {
    form.hours_unknown = 'on';
    return form;
  }
  for (const d of WEEKDAYS) form[HOURS_DAY_FIELDS[d]] = rangesToText(hours.weekly[d]);
  form.hours_holidays = hours.holidays;
  form.hours_holiday_ranges = hours.holidays === 'hours' ? rangesToText(hours.holidayRanges).replace(/^closed$/, '') : '';
  if (hours.closure) {
    form.hours_closure_from = hours.closure.from;
    form.hours_closure_until = hours.closure.until ?? '';
    form.hours_closure_note = hours.closure.note ?? '';
  }
  return form;
}

/** '9am', '5:30pm', '12am' – short enough for a revision line. */
function shortClock(t: string): string {
  const [h, m] = t.split(':').map(Number);
  const hh = h % 24;
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${h12}${m ? `:${String(m).padStart(2, '0')}` : ''}${hh < 12 ? 'am' : 'pm'}`;
}

/** "9am–5pm, 6pm–2am", "closed", "24 hours". */
export function shortRanges(ranges: HoursRange[] | undefined): string {
  if (!ranges?.length) return 'closed';
  return ranges.map((r) => (r.opens === '00:00' && r.closes === '24:00' ? '24 hours' : `${shortClock(r.opens)}–${shortClock(r.closes)}`)).join(', ');
}

function closureWords(c: PlaceHours['closure']): string {
  if (!c) return 'none';
  return `${c.from}–${c.until ?? 'further notice'}${c.note ? ` (${c.note})` : ''}`;
}

function holidayPolicyWords(h: PlaceHours): string {
  return h.holidays === 'hours' ? shortRanges(h.holidayRanges) : h.holidays;
}

/** Every day's hours in one line: "Mon closed; Tue 9am–5pm; …". */
export function describeHours(hours: PlaceHours | null): string {
  if (!hours) return 'not known';
  return WEEKDAYS.map((d) => `${DAY_SHORT[d]} ${shortRanges(hours.weekly[d])}`).join('; ');
}

/**
 * What changed, as a person reads it: "Tue 9am–5pm → 10am–6pm; holidays usual → closed"
 * (without the leading "hours "); '' when nothing did.
 */
export function describeHoursChange(from: PlaceHours | null, to: PlaceHours | null): string {
  if (!from && !to) return '';
  if (!from || !to) return `${describeHours(from)} → ${describeHours(to)}`;
  const parts: string[] = [];
  // Days in a row with the same change are one part: "Mon–Fri closed → 9am–5pm".
  let run: { first: Weekday; last: Weekday; change: string } | null = null;
  const flush = () => {
    if (run) parts.push(`${DAY_SHORT[run.first]}${run.last !== run.first ? `–${DAY_SHORT[run.last]}` : ''} ${run.change}`);
    run = null;
  };
  for (const d of WEEKDAYS) {
    const a = shortRanges(from.weekly[d]);
    const b = shortRanges(to.weekly[d]);
    const change = a === b ? null : `${a} → ${b}`;
    if (change && run && run.change === change) run.last = d;
    else {
      flush();
      if (change) run = { first: d, last: d, change };
    }
  }
  flush();
  const ha = holidayPolicyWords(from);
  const hb = holidayPolicyWords(to);
  if (ha !== hb) parts.push(`holidays ${ha} → ${hb}`);
  const ca = closureWords(from.closure);
  const cb = closureWords(to.closure);
  if (ca !== cb) parts.push(`closure ${ca} → ${cb}`);
  return parts.join('; ');
}
