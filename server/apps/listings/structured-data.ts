import type { ListingDetailRow } from './queries';
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

const DAY_NAMES: Record<string, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

export function listingStructuredData(l: ListingDetailRow, siteUrl: string, cityName: string, accessibility: AccessibilityAttributeDTO[] = []): Record<string, unknown> {
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
  if (l.hours) {
    data.openingHoursSpecification = Object.entries(l.hours)
      .filter(([day, span]) => DAY_NAMES[day] && /^\d{1,2}:\d{2}-\d{1,2}:\d{2}$/.test(span))
      .map(([day, span]) => {
        const [opens, closes] = span.split('-');
        return { '@type': 'OpeningHoursSpecification', dayOfWeek: `https://schema.org/${DAY_NAMES[day]}`, opens, closes };
      });
  }
  if (l.rating !== null && l.rating_count > 0) {
    data.aggregateRating = { '@type': 'AggregateRating', ratingValue: Number(l.rating).toFixed(2), ratingCount: l.rating_count, bestRating: 5, worstRating: 1 };
  }
  const known = accessibility.filter((a) => a.value !== 'unknown');
  if (known.length) {
    data.amenityFeature = known.map((a) => ({ '@type': 'LocationFeatureSpecification', name: a.label, value: a.value === 'yes' }));
  }
  return data;
}

/** Opening hours as rows for a table: Monday first, closed days said plainly. */
export function hoursRows(hours: Record<string, string> | null): Array<{ day: string; hours: string }> | null {
  if (!hours || !Object.keys(hours).length) return null;
  return Object.keys(DAY_NAMES).map((d) => ({ day: DAY_NAMES[d], hours: hours[d] ? spanWords(hours[d]) : 'Closed' }));
}

function spanWords(span: string): string {
  const [open, close] = span.split('-');
  return close ? `${clock(open)} – ${clock(close)}` : span;
}

function clock(t: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(t.trim());
  if (!m) return t;
  const h = Number(m[1]) % 24;
  const suffix = h < 12 ? 'am' : 'pm';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m[2] === '00' ? '' : `:${m[2]}`} ${suffix}`;
}
