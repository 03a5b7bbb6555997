import moment from 'moment-timezone';
import type { ListingDetailRow } from './queries';
import { ontarioHolidays } from '../../../shared/ontario-holidays';
import { isClosedOn, placeDay } from '../../../shared/place-closing';
import { holidayNotice } from '../../../shared/holiday-notice';
import {
  PLACE_TIME_ZONE,
  WEEKDAYS,
  WEEKDAY_NAMES,
  clockWords,
  dateWords,
  holidayWords,
  openState,
  readPlaceHours,
  weeklyRows,
  type HoursRange,
  type OpenState,
  type PlaceHours,
} from '../../../shared/place-hours';
import { listingPath } from './serialize';
import { imageUrl } from '../../../shared/format/image-url';
import type { AccessibilityAttributeDTO } from '../../../shared/dto';

// schema.org JSON-LD for a listing page: Restaurant (or the closest LocalBusiness kind) with an
// aggregateRating only when members have rated it, as Google asks, and its accessibility as
// amenityFeature (true/false as verified or by a clear majority of reports; unknown left out).

const SCHEMA_TYPE_BY_LISTING_TYPE: Record<string, string> = {
  restaurants: 'Restaurant',
  takeout: 'FastFoodRestaurant',
  'take-out': 'FastFoodRestaurant',
  bars: 'BarOrPub',
  cafes: 'CafeOrCoffeeShop',
  bakeries: 'Bakery',
  'food-shops': 'GroceryStore',
};

export function listingStructuredData(
  l: ListingDetailRow,
  siteUrl: string,
  cityName: string,
  accessibility: AccessibilityAttributeDTO[] = [],
  now: Date = new Date(),
  zone: string = PLACE_TIME_ZONE,
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': SCHEMA_TYPE_BY_LISTING_TYPE[l.type_slug] ?? 'LocalBusiness',
    name: l.name,
    url: siteUrl + listingPath(l),
    address: { '@type': 'PostalAddress', streetAddress: l.address, addressLocality: cityName, addressCountry: 'CA' },
  };
  if (l.image_key) data.image = siteUrl + imageUrl(l.image_key, 'articleCard');
  if (l.phone) data.telephone = l.phone;
  if (l.website) data.sameAs = l.website;
  if (l.latitude !== null && l.longitude !== null) data.geo = { '@type': 'GeoCoordinates', latitude: l.latitude, longitude: l.longitude };
  if (l.sub_type_name && data['@type'] === 'Restaurant') data.servesCuisine = l.sub_type_name;
  // A place closed for good has no opening hours to announce; one closing on a day ahead keeps them until then.
  const hours = isClosedOn(l.closed_on, placeDay(now, zone)) ? null : readPlaceHours(l.hours);
  if (hours) data.openingHoursSpecification = openingHoursSpecification(hours, now, zone);
  if (l.rating !== null && l.rating_count > 0) {
    data.aggregateRating = { '@type': 'AggregateRating', ratingValue: Number(l.rating).toFixed(2), ratingCount: l.rating_count, bestRating: 5, worstRating: 1 };
  }
  // The newsroom's own review of the place (issue 39), as a critic's review is described.
  if (l.review_published_at && l.review) {
    data.review = {
      '@type': 'Review',
      url: `${siteUrl}${listingPath(l)}#review`,
      author: { '@type': 'Person', name: l.review_byline },
      datePublished: moment.tz(l.review_published_at, zone).format('YYYY-MM-DD'),
      reviewBody: l.review,
    };
  }
  const known = accessibility.filter((a) => a.value !== 'unknown');
  if (known.length) {
    data.amenityFeature = known.map((a) => ({ '@type': 'LocationFeatureSpecification', name: a.label, value: a.value === 'yes' }));
  }
  return data;
}

/** Holidays this close ahead are written out in the JSON-LD (the days Google shows holiday hours for are within a week). */
const HOLIDAYS_AHEAD_DAYS = 60;

/**
 * schema.org OpeningHoursSpecification: one per range (a day with two ranges has two); a range
 * past midnight closes earlier than it opens, as schema.org reads "the next day"; a temporary
 * closure and the coming public holidays a place changes its hours for are dated specifications
 * (validFrom/validThrough) with 00:00–00:00 meaning closed, as Google's guide for special hours has it.
 */
export function openingHoursSpecification(hours: PlaceHours, now: Date, zone: string): Array<Record<string, string>> {
  const spec = (ranges: HoursRange[], extra: Record<string, string>) =>
    ranges.length
      ? ranges.map((r) => ({ '@type': 'OpeningHoursSpecification', ...extra, opens: r.opens, closes: r.closes === '24:00' ? '23:59' : r.closes }))
      : [{ '@type': 'OpeningHoursSpecification', ...extra, opens: '00:00', closes: '00:00' }];
  const out: Array<Record<string, string>> = [];
  for (const d of WEEKDAYS) {
    for (const r of hours.weekly[d] ?? []) {
      out.push({ '@type': 'OpeningHoursSpecification', dayOfWeek: `https://schema.org/${WEEKDAY_NAMES[d]}`, opens: r.opens, closes: r.closes === '24:00' ? '23:59' : r.closes });
    }
  }
  if (hours.holidays !== 'usual') {
    const today = moment.tz(now, zone).format('YYYY-MM-DD');
    const last = moment.utc(today).add(HOLIDAYS_AHEAD_DAYS, 'days').format('YYYY-MM-DD');
    const years = [...new Set([today.slice(0, 4), last.slice(0, 4)])].map(Number);
    for (const h of years.flatMap(ontarioHolidays)) {
      if (!h.esa || h.date < today || h.date > last) continue;
      out.push(...spec(hours.holidays === 'hours' ? (hours.holidayRanges ?? []) : [], { validFrom: h.date, validThrough: h.date }));
    }
  }
  const c = hours.closure;
  if (c && (c.until === null || c.until >= moment.tz(now, zone).format('YYYY-MM-DD'))) {
    out.push(...spec([], { validFrom: c.from, ...(c.until ? { validThrough: c.until } : {}) }));
  }
  return out;
}

export interface PlaceHoursView {
  rows: Array<{ day: string; hours: string }>;
  state: OpenState;
  /** The minute the state was worked out, as the page says it ("as of 9:42 pm"): shared caches keep a page up to a minute. */
  asOf: string;
  asOfIso: string;
  holidays: string;
  /** "Holiday hours may differ: Christmas Day, Fri Dec 25" while a holiday is near and the hours say nothing of it. */
  holidayNotice: string | null;
  closure: string | null;
}

/** What the place page shows of its hours; null when they are not known (the page says so). */
export function placeHoursView(raw: unknown, now: Date, zone: string = PLACE_TIME_ZONE): PlaceHoursView | null {
  const hours = readPlaceHours(raw);
  if (!hours) return null;
  const local = moment.tz(now, zone);
  const c = hours.closure;
  const today = local.format('YYYY-MM-DD');
  const day = (d: string) => dateWords(d, today);
  const closure = c && (c.until === null || c.until >= today) ? `Temporarily closed ${c.until ? `from ${day(c.from)} to ${day(c.until)}` : `from ${day(c.from)} until further notice`}${c.note ? ` (${c.note})` : ''}.` : null;
  return {
    rows: weeklyRows(hours)!,
    state: openState(hours, now, zone),
    asOf: clockWords(local),
    asOfIso: local.clone().startOf('minute').toISOString(),
    holidays: holidayWords(hours),
    holidayNotice: holidayNotice(hours, now, zone),
    closure,
  };
}
