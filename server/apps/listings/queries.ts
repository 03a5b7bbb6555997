import type { Db } from '../../db';
import { type ListingRow, toListingDTO } from './serialize';
import type { MultiPolygon } from '../../views/boundary-svg';
import { joinCreditedAuthor } from '../profiles/credited-author-queries';
import type { Knex } from 'knex';
import type { ListingDTO } from '../../../shared/dto';
import type { StoryDoc } from '../../../shared/newsroom';
import type { HubTypeOption } from '../../../shared/listing-hub';
import { absoluteUrl, urls } from '../../../shared/urls';
import { cachedCount, cachedValue } from '../../db/count-cache';
import { KEEP_ANSWERS_FROM, sharedAnswer } from '../../db/answer-cache';
import { surrogateKeys } from '../../http/surrogate-keys';
import type { Point } from './geo';
import { SUBWAY_STOP_RADIUS_KM, type BundleType, type ListingOrdering, type ListingSearchParams } from './search-params';
import { applyCircle, applyFilters, applyOrdering, distanceSql, effectiveOrdering } from './listing-search-queries';

// What the places pages read (the /places/ landing, listing detail and its photos). The hub's
// search itself is the content API's searchListings; these are the page-only lookups.

export const LISTING_COLUMNS = [
  'l.id', 'l.name', 'l.slug', 'l.address', 'l.phone', 'l.website', 'l.latitude', 'l.longitude', 'l.image_key',
  'l.dinesafe_establishment_id', 'l.rating', 'l.rating_count', 'l.favourite_count', 'l.appears_in_best_of_lists',
  'l.date_published', 'l.smart_review_score', 'l.review_published_at', 'l.closed_on',
  'lt.id as type_id', 'lt.name as type_name', 'lt.slug as type_slug',
  'lst.id as sub_type_id', 'lst.name as sub_type_name', 'lst.slug as sub_type_slug',
  'n.id as neighbourhood_id', 'n.name as neighbourhood_name', 'n.slug as neighbourhood_slug',
] as const;

/**
 * listings l with its type lt, sub-type lst and neighbourhood n joined, LISTING_COLUMNS selected.
 * A listing has no public scope: every row is public (a closed place still has its page).
 */
export function listingsQuery(db: Db) {
  return db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .leftJoin('listing_sub_types as lst', 'lst.id', 'l.sub_type_id')
    .leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id')
    .select([...LISTING_COLUMNS]);
}

export interface ListingTypeRow {
  id: number;
  name: string;
  slug: string;
}

export interface SubTypeRow {
  id: number;
  type_id: number;
  name: string;
  slug: string;
}

/** Every listing type with how many places it has, in menu order. */
export async function listingTypesWithCounts(db: Db): Promise<Array<ListingTypeRow & { count: number }>> {
  const rows = await db('listing_types as lt')
    .leftJoin(db('listings').select('type_id').count('* as count').groupBy('type_id').as('c'), 'c.type_id', 'lt.id')
    .select('lt.id', 'lt.name', 'lt.slug', db.raw('coalesce(c.count, 0)::int as count'))
    .orderBy([{ column: 'lt.position' }, { column: 'lt.name' }]);
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

export async function recentListings(db: Db, limit: number): Promise<ListingRow[]> {
  return listingsQuery(db).orderBy([{ column: 'l.date_published', order: 'desc' }, { column: 'l.id', order: 'desc' }]).limit(limit);
}

export interface ListingDetailRow extends ListingRow {
  description: string;
  /** The review (plain paragraphs) and its byline: shown when review_published_at is set. */
  review: string;
  /** The review's document (story schema), rendered in its place; null for a plain-text review. */
  review_doc: StoryDoc | null;
  review_byline: string;
  hours: Record<string, string> | null;
  nearest_subway_stop_id: number | null;
  nearest_subway_stop_distance_m: number | null;
  /** Staff's word on its closing ('' when none). */
  closed_note: string;
}

export async function listingDetail(db: Db, id: number): Promise<ListingDetailRow | undefined> {
  return listingsQuery(db).where('l.id', id).first('l.description', 'l.review', 'l.review_doc', 'l.review_byline', 'l.hours', 'l.nearest_subway_stop_id', 'l.nearest_subway_stop_distance_m', 'l.closed_note');
}

export interface PhotoPreviewRow {
  id: number;
  title: string;
  description: string;
  image_key: string;
  width: number;
  height: number;
  creation_date: string | Date;
  instagram_user?: string | null;
  profile_name?: string | null;
}

export async function listingPhotoPreview(db: Db, listingId: number, limit: number): Promise<{ photos: PhotoPreviewRow[]; count: number }> {
  const [photos, [{ count }]] = await Promise.all([
    // The author too: the photo viewer credits each photo.
    joinCreditedAuthor(db('photos as p'), 'pp', 'p.profile_id').where({ 'p.listing_id': listingId })
      .orderBy([{ column: 'p.creation_date', order: 'desc' }, { column: 'p.id', order: 'desc' }]).limit(limit)
      .select('p.id', 'p.title', 'p.description', 'p.image_key', 'p.width', 'p.height', 'p.creation_date', 'p.instagram_user', 'pp.full_name as profile_name'),
    db('photos').where({ listing_id: listingId }).count('* as count'),
  ]);
  return { photos, count: Number(count) };
}

export async function bestOfListsFor(db: Db, listingId: number): Promise<Array<{ title: string; slug: string }>> {
  return db('best_of_list_items as i')
    .join('best_of_lists as b', 'b.id', 'i.list_id')
    .where('i.listing_id', listingId)
    .orderBy('b.date_published', 'desc')
    .limit(10)
    .select('b.title', 'b.slug');
}

export interface StationRow {
  id: number;
  name: string;
  lines: string;
  latitude: number;
  longitude: number;
  distance_km: number;
}

const distanceKm = (latCol: string, lngCol: string) =>
  // Equirectangular distance: exact enough within a city, and cheap.
  `6371 * sqrt(power(radians(${latCol} - ?), 2) + power(cos(radians(?)) * radians(${lngCol} - ?), 2))`;

/** The nearest subway station: the one stored on the listing, else the closest of the ~70. */
export async function nearestStation(db: Db, l: Pick<ListingDetailRow, 'latitude' | 'longitude' | 'nearest_subway_stop_id'>): Promise<StationRow | null> {
  if (l.latitude === null || l.longitude === null) return null;
  const q = db('subway_stops')
    .select('id', 'name', 'lines', 'latitude', 'longitude', db.raw(`${distanceKm('latitude', 'longitude')} as distance_km`, [l.latitude, l.latitude, l.longitude]));
  const row = l.nearest_subway_stop_id ? await q.where({ id: l.nearest_subway_stop_id }).first() : await q.orderBy('distance_km').first();
  return row ? { ...row, distance_km: Number(row.distance_km) } : null;
}

/**
 * Places near a point, closest first. The box prefilter (about 1.5 km) lets the
 * (latitude, longitude) index do the work before distances are computed.
 */
export async function nearbyListings(db: Db, lat: number, lng: number, excludeId: number, limit: number, openOn?: string): Promise<Array<ListingRow & { distance: number }>> {
  const dLat = 0.0135;
  const dLng = 0.0185;
  const rows = await listingsQuery(db)
    .select(db.raw(`${distanceKm('l.latitude', 'l.longitude')} as distance`, [lat, lat, lng]))
    .whereBetween('l.latitude', [lat - dLat, lat + dLat])
    .whereBetween('l.longitude', [lng - dLng, lng + dLng])
    .whereNot('l.id', excludeId)
    // The map of places nearby leaves closed places out, as the hub's does.
    .where((w) => (openOn ? w.whereNull('l.closed_on').orWhere('l.closed_on', '>', openOn) : w.whereRaw('true')))
    .orderBy('distance')
    .limit(limit);
  return rows.map((r) => ({ ...r, distance: Number(r.distance) }));
}

/** A neighbourhood's boundary, parsed (the listings service keeps them ten minutes). */
export async function readNeighbourhoodBoundary(db: Db, id: number): Promise<MultiPolygon | null> {
  const row: { boundaries: MultiPolygon | string } | undefined = await db('neighbourhoods').where({ id }).first('boundaries');
  return row ? (typeof row.boundaries === 'string' ? (JSON.parse(row.boundaries) as MultiPolygon) : row.boundaries) : null;
}

export interface PhotoPosition {
  photo: PhotoPreviewRow & { profile_name: string | null; instagram_user: string | null };
  index: number;
  count: number;
  previousId: number | null;
  nextId: number | null;
}

// Photos are listed newest first (creation_date desc, id desc); a photo's position is the number
// of photos before it in that order. The comparison reads the photo's own row in SQL, because
// a timestamp sent back from JavaScript would lose its microseconds.
const newerThan = (db: Db, id: number) => db.raw('(creation_date, id) > (select creation_date, id from photos where id = ?)', [id]);
const olderThan = (db: Db, id: number) => db.raw('(creation_date, id) < (select creation_date, id from photos where id = ?)', [id]);

/** A listing's photo with its place among the listing's photos ('N of M') and its neighbours. */
export async function listingPhotoPosition(db: Db, listingId: number, photoId: number): Promise<PhotoPosition | null> {
  const photo = await joinCreditedAuthor(db('photos as p'), 'pp', 'p.profile_id')
    .where({ 'p.id': photoId, 'p.listing_id': listingId })
    .first('p.id', 'p.title', 'p.description', 'p.image_key', 'p.width', 'p.height', 'p.creation_date', 'p.instagram_user', 'pp.full_name as profile_name');
  if (!photo) return null;
  const scope = () => db('photos').where({ listing_id: listingId });
  const [[{ before }], [{ count }], previous, next] = await Promise.all([
    scope().where(newerThan(db, photo.id)).count('* as before'),
    scope().count('* as count'),
    scope().where(newerThan(db, photo.id)).orderBy([{ column: 'creation_date' }, { column: 'id' }]).first('id'),
    scope().where(olderThan(db, photo.id)).orderBy([{ column: 'creation_date', order: 'desc' }, { column: 'id', order: 'desc' }]).first('id'),
  ]);
  return { photo, index: Number(before) + 1, count: Number(count), previousId: previous?.id ?? null, nextId: next?.id ?? null };
}

export async function listingPhotosPage(db: Db, listingId: number, limit: number, offset: number): Promise<{ photos: PhotoPreviewRow[]; count: number }> {
  const [photos, [{ count }]] = await Promise.all([
    db('photos').where({ listing_id: listingId }).orderBy([{ column: 'creation_date', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset(offset)
      .select('id', 'title', 'description', 'image_key', 'width', 'height', 'creation_date'),
    db('photos').where({ listing_id: listingId }).count('* as count'),
  ]);
  return { photos, count: Number(count) };
}

/** What the listing detail page shows beyond the listing itself, read in parallel (its neighbourhood's boundary comes from the listings service's cache). */
export async function listingDetailExtras(db: Db, l: ListingDetailRow, openOn?: string) {
  const hasPoint = l.latitude !== null && l.longitude !== null;
  const [photos, bestOf, station, nearby] = await Promise.all([
    listingPhotoPreview(db, l.id, 6),
    bestOfListsFor(db, l.id),
    nearestStation(db, l),
    hasPoint ? nearbyListings(db, l.latitude!, l.longitude!, l.id, 6, openOn) : Promise.resolve([]),
  ]);
  return { photos, bestOf, station, nearby };
}

// Listing search (spec 2 §3) as one service the API and the hub pages both call:
// filters → count → one page of rows in one query (type, sub-type, neighbourhood and the
// member's rating joined, no per-row lookups) → DTOs in the requested bundle.

export interface ListingSearchOptions {
  siteUrl: string;
  /** The signed-in member, for user_rating; guests get user_rating null. */
  memberId?: number;
}

/** A listing with the fields of its bundle: `simple` is a subset, `large` adds details. */
export type ListingResult = Partial<ListingDTO> & Pick<ListingDTO, 'id' | 'name' | 'share_url'> & Partial<ListingDetails>;

export interface ListingDetails {
  description: string;
  hours: Record<string, string> | null;
  smart_review_score: number;
}

export interface ListingSearchResult {
  count: number;
  results: ListingResult[];
}

/** The distance search starts with this radius and widens it until a page is full. */
const FIRST_RADIUS_KM = 2;
const RADIUS_GROWTH = 4;
/** Beyond this the box would cover the whole city anyway: rank everything. */
const WIDEST_RADIUS_KM = 200;

interface Centre {
  point: Point;
  /** Only listings within this many km, when set. */
  radius?: number;
}

/** Where distances are measured from: the subway stop (which also limits the radius) or the point. */
async function centreFor(db: Db, p: ListingSearchParams): Promise<Centre | null | undefined> {
  if (p.subway_stop !== undefined) {
    // Stations move only with a new seed: their coordinates are kept like a large count, so a
    // search near a stop is one round trip to the database, not two in a row.
    const id = p.subway_stop;
    // No change names a station (a seed moves them): kept through every keyed change ([]).
    const stop = await cachedValue(db, `subway-stop\u0000${id}`, () => db('subway_stops').where('id', id).first('latitude', 'longitude') as Promise<Point | undefined>, { keep: Boolean, tags: [] });
    if (!stop) return null; // an unknown stop matches nothing
    return { point: { latitude: stop.latitude, longitude: stop.longitude }, radius: p.radius ?? SUBWAY_STOP_RADIUS_KM };
  }
  if (p.point) return { point: p.point, radius: p.radius };
  return undefined;
}

/** The bundle's columns of `listings as l` with its lookups joined; the caller adds the filters. */
function rowsQuery(db: Db, p: ListingSearchParams, opts: ListingSearchOptions, centre: Centre | undefined) {
  const qb = listingsQuery(db);
  if (p.bundle_type === 'large') qb.select('l.description', 'l.hours');
  if (opts.memberId !== undefined) {
    qb.leftJoin('ratings as ur', (j) => j.on('ur.listing_id', 'l.id').andOnVal('ur.profile_id', '=', opts.memberId!));
    qb.select('ur.id as user_rating_id', 'ur.rating as user_rating');
  } else {
    qb.select(db.raw('null::int as user_rating_id'), db.raw('null::int as user_rating'));
  }
  if (centre) qb.select(db.raw('? as distance', [distanceSql(db, centre.point)]));
  return qb;
}

/**
 * Listing search: the count of all matches and one page of them, as DTOs in the requested
 * bundle. A large answer is the same for everybody but the member's own ratings, so it is
 * kept a few seconds (db/answer-cache.ts) and a member's ratings of its page are added after.
 */
export async function searchListings(db: Db, p: ListingSearchParams, opts: ListingSearchOptions): Promise<ListingSearchResult> {
  const key = JSON.stringify(['listings', p, opts.siteUrl]);
  const shared = await sharedAnswer(db, key, () => searchListingsNow(db, p, opts.siteUrl), { keep: (r) => r.count >= KEEP_ANSWERS_FROM, tags: PLACE_LIST_TAGS });
  return opts.memberId === undefined ? shared : withMemberRatings(db, shared, opts.memberId);
}

/** The member's own rating on each listing of a page that shows one (every bundle but `simple`). */
async function withMemberRatings(db: Db, answer: ListingSearchResult, memberId: number): Promise<ListingSearchResult> {
  const ids = answer.results.filter((r) => 'user_rating' in r).map((r) => r.id);
  if (ids.length === 0) return answer;
  // One SQL text for any page (an array, not a list of values), named: planned once per connection.
  const rows: Array<{ id: number; listing_id: number; rating: number | string }> = await db('ratings')
    .where('profile_id', memberId)
    .whereRaw('listing_id = any(?::integer[])', [ids])
    .select('id', 'listing_id', 'rating')
    .options({ name: 'member-ratings-of-listings' });
  // No rating of theirs on the page: the shared answer is theirs too (user_rating null throughout).
  if (rows.length === 0) return answer;
  const mine = new Map(rows.map((r) => [r.listing_id, { id: r.id, rating: Number(r.rating) }]));
  return { count: answer.count, results: answer.results.map((r) => ('user_rating' in r ? { ...r, user_rating: mine.get(r.id) ?? null } : r)) };
}

/** What a list of places shows, for the shared answers and counts: every place's change names `places` (http/surrogate-keys.ts). */
const PLACE_LIST_TAGS = [surrogateKeys.places];

/** The search as a guest sees it (user_rating null). */
async function searchListingsNow(db: Db, p: ListingSearchParams, siteUrl: string): Promise<ListingSearchResult> {
  const opts: ListingSearchOptions = { siteUrl };
  const centre = await centreFor(db, p);
  if (centre === null) return { count: 0, results: [] };
  const ordering = effectiveOrdering(p);

  const countQuery = db('listings as l').count({ count: '*' });
  applyFilters(countQuery, db, p);
  if (centre?.radius !== undefined) applyCircle(countQuery, db, centre.point, centre.radius);
  let total: number;
  let rows: ListingRow[];
  if (ordering === 'distance' && centre && centre.radius === undefined) {
    // Widening the circle needs to know how many rows the page can have.
    total = await cachedCount(db, countQuery, { tags: PLACE_LIST_TAGS });
    if (total === 0 || p.offset >= total) return { count: total, results: [] };
    rows = await nearestFirst(db, p, opts, centre, total);
  } else {
    let page: Knex.QueryBuilder;
    // Feature, accessibility and service filters are semi-joins: planned together with the joined lookups
    // they took 2.8 ms to plan for a 0.7 ms query; on the listings table alone, 0.7 ms.
    // A box picks its page from the (latitude, longitude) index carrying id and name (an
    // index-only scan): joined first, it read every match's row to sort them (5 → 0.4 ms).
    if (ordering === 'keywords' || ordering === 'distance' || p.features.length > 0 || (p.accessibility?.length ?? 0) > 0 || p.service || p.bbox) {
      page = pageFirst(db, p, opts, centre, ordering, centre?.radius);
    } else {
      const qb = rowsQuery(db, p, opts, centre);
      applyFilters(qb, db, p);
      if (centre?.radius !== undefined) applyCircle(qb, db, centre.point, centre.radius);
      applyOrdering(qb, db, ordering, p);
      page = qb.offset(p.offset).limit(p.limit);
    }
    // The count and the page in parallel: one round trip of waiting, not two.
    [total, rows] = await Promise.all([cachedCount(db, countQuery, { tags: PLACE_LIST_TAGS }), page]);
  }
  return { count: total, results: rows.map((r) => toBundle(r, p.bundle_type, opts.siteUrl)) };
}

/**
 * Nearest first without a radius: look inside a small circle (an index range on latitude and
 * longitude), and widen it until it holds the whole page. A full page from a circle is the
 * true answer, since everything outside the circle is farther than everything inside it.
 */
async function nearestFirst(db: Db, p: ListingSearchParams, opts: ListingSearchOptions, centre: Centre, total: number): Promise<ListingRow[]> {
  const wanted = Math.min(p.limit, total - p.offset);
  for (let radius = FIRST_RADIUS_KM; radius <= WIDEST_RADIUS_KM; radius *= RADIUS_GROWTH) {
    const rows = await pageFirst(db, p, opts, centre, 'distance', radius);
    if (rows.length >= wanted) return rows;
  }
  // Far-away or coordinate-less listings: rank them all (those without coordinates last).
  return pageFirst(db, p, opts, centre, 'distance', undefined);
}

/**
 * The page picked on the listings table alone, then types, sub-types and neighbourhoods joined
 * for those rows only. For orders that sort every match (type-ahead, distance): at city scale,
 * sorting 600 joined rows took 6 ms, sorting the bare rows 1 ms. For semi-join filters: less
 * planning (see searchListings). The page's rows come back in the same order (sorted again).
 */
function pageFirst(db: Db, p: ListingSearchParams, opts: ListingSearchOptions, centre: Centre | undefined, ordering: ListingOrdering | 'keywords', radius: number | undefined): Knex.QueryBuilder {
  const page = db('listings as l').select('l.id');
  if (centre) page.select(db.raw('? as distance', [distanceSql(db, centre.point)]));
  applyFilters(page, db, p);
  if (centre && radius !== undefined) applyCircle(page, db, centre.point, radius);
  applyOrdering(page, db, ordering, p);
  page.offset(p.offset).limit(p.limit);
  // The page is already filtered: the outer query only joins (filters again, it planned 2.3 ms).
  const qb = rowsQuery(db, p, opts, centre).join(page.as('page'), 'page.id', 'l.id');
  applyOrdering(qb, db, ordering, p);
  return qb;
}

function toBundle(row: ListingRow & Partial<{ description: string; hours: unknown }>, bundle: BundleType, siteUrl: string): ListingResult {
  const dto = toListingDTO(row, siteUrl);
  if (bundle === 'simple') {
    // Enough for a map marker or a type-ahead suggestion.
    const simple: ListingResult = {
      id: dto.id,
      name: dto.name,
      share_url: dto.share_url,
      address: dto.address,
      coordinates: dto.coordinates,
      rating: dto.rating,
      rating_count: dto.rating_count,
      appears_in_best_of_lists: dto.appears_in_best_of_lists,
    };
    if (dto.distance !== undefined) simple.distance = dto.distance;
    return simple;
  }
  if (bundle === 'large') {
    return {
      ...dto,
      description: row.description ?? '',
      hours: (row.hours as Record<string, string> | null) ?? null,
      smart_review_score: Number(row.smart_review_score),
    };
  }
  return dto;
}

/** One listing with every field (the `large` bundle) and the member's rating; null when absent. */
export async function listingById(db: Db, id: number, opts: ListingSearchOptions): Promise<ListingResult | null> {
  const qb = listingsQuery(db).select('l.description', 'l.hours').where('l.id', id);
  if (opts.memberId !== undefined) {
    qb.leftJoin('ratings as ur', (j) => j.on('ur.listing_id', 'l.id').andOnVal('ur.profile_id', '=', opts.memberId!));
    qb.select('ur.id as user_rating_id', 'ur.rating as user_rating');
  } else {
    qb.select(db.raw('null::int as user_rating_id'), db.raw('null::int as user_rating'));
  }
  const row = await qb.first();
  return row ? toBundle(row, 'large', opts.siteUrl) : null;
}

// ## Taxonomy and options for the filters

export interface SubTypeOption {
  id: number;
  name: string;
  slug: string;
  /** Position among its type's sub-types (the hub's "index"). */
  index: number;
  share_url: string;
}

export interface ListingTypeOption {
  id: number;
  name: string;
  slug: string;
  share_url: string;
  sub_types: SubTypeOption[];
}

/** Listing types in menu order, each with its sub-types and their pages: two queries, however many types. */
export async function listingTypesWithSubTypes(db: Db, siteUrl: string): Promise<ListingTypeOption[]> {
  const [types, subTypes] = await Promise.all([listingTypesQuery(db), listingSubTypesQuery(db)]);
  return typeOptions(types, subTypes).map((t) => ({
    ...t,
    share_url: absoluteUrl(siteUrl, urls.listingType(t.slug)),
    sub_types: t.sub_types.map((s) => ({ ...s, share_url: absoluteUrl(siteUrl, urls.listingSubType(t.slug, s.slug)) })),
  }));
}

export function listingTypesQuery(db: Db) {
  return db('listing_types').select('id', 'name', 'slug').orderBy([{ column: 'position' }, { column: 'name' }, { column: 'id' }]);
}

/** The navbar's listing types (navbar-menus.ts): name and slug, in the types' own order. */
export function listingTypeLinksQuery(db: Db) {
  return db('listing_types').orderBy(['position', 'name']).select('name', 'slug');
}

/** The places whose reviews were published last, newest first (the navbar's RECENT REVIEWS). */
export function reviewedPlaceLinksQuery(db: Db, limit: number) {
  return db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .whereNotNull('l.review_published_at')
    .orderBy([{ column: 'l.review_published_at', order: 'desc' }, { column: 'l.id', order: 'desc' }])
    .limit(limit)
    .select('l.id', 'l.name', 'l.slug', 'lt.slug as type_slug', 'l.review_published_at');
}

export function listingSubTypesQuery(db: Db) {
  return db('listing_sub_types').select('id', 'type_id', 'name', 'slug').orderBy([{ column: 'position' }, { column: 'name' }, { column: 'id' }]);
}

/** The types in menu order, each with its sub-types (rows of the two queries above), as the hub filters list them. */
export function typeOptions(
  types: Array<{ id: number; name: string; slug: string }>,
  subTypes: Array<{ id: number; type_id: number; name: string; slug: string }>,
): HubTypeOption[] {
  const byType = new Map<number, HubTypeOption>();
  const out: HubTypeOption[] = types.map((t) => {
    const option: HubTypeOption = { id: t.id, name: t.name, slug: t.slug, sub_types: [] };
    byType.set(t.id, option);
    return option;
  });
  for (const s of subTypes) {
    const type = byType.get(s.type_id);
    if (!type) continue;
    type.sub_types.push({ id: s.id, name: s.name, slug: s.slug, index: type.sub_types.length });
  }
  return out;
}

export interface FeatureOption {
  id: number;
  name: string;
  slug: string;
}

/** The features a listing can have (spec 2 §3 "Feature option: name, slug"), by name. */
export function featureOptions(db: Db): Promise<FeatureOption[]> {
  return featureOptionsQuery(db);
}

export function featureOptionsQuery(db: Db) {
  return db('features').select('id', 'name', 'slug').orderBy([{ column: 'name' }, { column: 'id' }]);
}

/** The services a listing can offer, by name. */
export function serviceOptions(db: Db): Promise<FeatureOption[]> {
  return serviceOptionsQuery(db);
}

export function serviceOptionsQuery(db: Db) {
  return db('services').select('id', 'name', 'slug').orderBy([{ column: 'name' }, { column: 'id' }]);
}
