import type { Knex } from 'knex';
import type { Db } from '../../db';
import { escapeLike } from '../../db/like-pattern';
import { EARTH_RADIUS_KM } from '../../../shared/constants';
import { boxAround, type Point } from './geo';
import { whereAccessible } from '../accessibility/queries';
import { whereOpenNow } from './hours-queries';
import type { IdOrSlug, ListingOrdering, ListingSearchParams } from './search-params';

// The listing search's criteria as SQL on `listings as l` (queries.ts's searchListings builds
// its count and page queries with these): the filters, the distance circle and the orders.

/** Keywords this long or longer also match inside names (trigrams need 3 characters). */
const MIN_SUBSTRING = 3;

function whereIdOrSlug(qb: Knex.QueryBuilder, db: Db, column: string, table: string, v: IdOrSlug): void {
  if ('id' in v) qb.where(column, v.id);
  // Sub-type slugs are unique only within a type, so a slug may name several rows.
  else qb.whereIn(column, db(table).select('id').where('slug', v.slug));
}

/** Every filter except distance, on `listings as l`. */
export function applyFilters(qb: Knex.QueryBuilder, db: Db, p: ListingSearchParams): void {
  if (p.keywords) {
    // One or two letters: names starting with them (the prefix btree); a substring that short
    // matches half the city and no trigram index can help with it.
    const kw = escapeLike(p.keywords.toLowerCase());
    qb.whereRaw('lower(l.name) like ?', [p.keywords.length < MIN_SUBSTRING ? `${kw}%` : `%${kw}%`]);
  }
  if (p.type) whereIdOrSlug(qb, db, 'l.type_id', 'listing_types', p.type);
  if (p.sub_type) whereIdOrSlug(qb, db, 'l.sub_type_id', 'listing_sub_types', p.sub_type);
  if (p.default_neighborhood !== undefined) qb.where('l.neighbourhood_id', p.default_neighborhood);
  if (p.bbox) {
    qb.whereBetween('l.latitude', [p.bbox.bottom, p.bbox.top]).whereBetween('l.longitude', [p.bbox.left, p.bbox.right]);
  }
  // The slug becomes its id once per query (a scalar sub-select; an unknown slug is null and
  // matches nothing), so each listing costs one index-only probe of (feature_id, listing_id)
  // instead of a join per listing: 1.4 → 1 ms for a page, 10 → 5.5 ms for the count.
  if (p.service) {
    qb.whereExists(
      db('listing_services as ls').whereRaw('ls.listing_id = l.id').where('ls.service_id', db('services').select('id').where('slug', p.service)).select(db.raw('1')),
    );
  }
  // Every feature must match: one semi-join per feature.
  for (const feature of p.features) {
    qb.whereExists(
      db('listing_features as lf').whereRaw('lf.listing_id = l.id').where('lf.feature_id', db('features').select('id').where('slug', feature)).select(db.raw('1')),
    );
  }
  // Each accessibility attribute: verified yes, or a clear majority of reports (accessibility app).
  whereAccessible(qb, db, p.accessibility ?? []);
  if (p.appears_in_best_of_lists !== undefined) qb.where('l.appears_in_best_of_lists', p.appears_in_best_of_lists);
  // Open now: places whose hours are unknown are left out (neither open nor closed).
  if (p.open_now) whereOpenNow(qb, p.open_now);
  // A closed place stays findable by name (site search, its page) but leaves the hub, its API and the maps.
  if (p.open_on) qb.where((w) => w.whereNull('l.closed_on').orWhere('l.closed_on', '>', p.open_on!));
}

/** The haversine distance in km from `p` to the row's latitude/longitude columns (R = 6371 km, spec 2 §9). */
export function distanceSql(knex: Knex, p: Point, lat = 'l.latitude', lng = 'l.longitude'): Knex.Raw {
  // least(1, …) keeps asin's argument in its domain when rounding nudges it past 1.
  return knex.raw(
    `(2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
        power(sin(radians(${lat} - ?) / 2), 2)
        + cos(radians(?)) * cos(radians(${lat})) * power(sin(radians(${lng} - ?) / 2), 2)))))`,
    [p.latitude, p.latitude, p.longitude],
  );
}

export function applyCircle(qb: Knex.QueryBuilder, db: Db, point: Point, radiusKm: number): void {
  const box = boxAround(point, radiusKm);
  qb.whereBetween('l.latitude', [box.minLat, box.maxLat])
    .whereBetween('l.longitude', [box.minLng, box.maxLng])
    .where(distanceSql(db, point), '<=', radiusKm);
}

/**
 * The effective order: an explicit `ordering` wins; otherwise keyword searches put names that
 * start with the keywords first (type-ahead, spec 2 §5), searches around a point go nearest
 * first, and the rest go by name (spec 2 §3's default).
 */
export function effectiveOrdering(p: Pick<ListingSearchParams, 'ordering' | 'keywords' | 'point' | 'subway_stop'>): ListingOrdering | 'keywords' {
  if (p.ordering) return p.ordering;
  if (p.keywords) return 'keywords';
  if (p.point || p.subway_stop !== undefined) return 'distance';
  return 'name';
}

export function applyOrdering(qb: Knex.QueryBuilder, db: Db, ordering: ListingOrdering | 'keywords', p: ListingSearchParams): void {
  // Each order ends with the id so that pages never overlap, and matches an index on listings.
  switch (ordering) {
    case 'keywords':
      qb.orderByRaw('(lower(l.name) like ?) desc', [`${escapeLike(p.keywords!.toLowerCase())}%`]).orderBy('l.name').orderBy('l.id');
      break;
    case 'name':
      qb.orderBy('l.name').orderBy('l.id');
      break;
    case '-rating':
      // The damped rating (smart-review.ts): one 5-star vote does not put a place first.
      qb.orderByRaw('l.rating_rank desc nulls last, l.id');
      break;
    case '-favourite_count':
      qb.orderBy('l.favourite_count', 'desc').orderBy('l.id');
      break;
    case '-date_published':
      qb.orderBy('l.date_published', 'desc').orderBy('l.id');
      break;
    case 'smart_review':
      qb.orderBy('l.smart_review_score', 'desc').orderBy('l.id');
      break;
    case 'distance':
      qb.orderByRaw('distance asc nulls last, l.id');
      break;
  }
}
