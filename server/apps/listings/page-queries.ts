import type { Db } from '../../db';
import { MemoryCache } from '../../cache/memory-cache';
import { NEIGHBOURHOOD_BOUNDARY_TTL_MS } from '../../cache/lifetimes';
import { listingsQuery, type ListingRow } from './serialize';
import type { MultiPolygon } from '../../views/boundary-svg';
import { joinCreditedAuthor } from '../profiles/credited-author';

// What the places pages read (the /places/ landing, listing detail and its photos). The hub's
// search itself is the content API's searchListings; these are the page-only lookups.

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
  hours: Record<string, string> | null;
  nearest_subway_stop_id: number | null;
  nearest_subway_stop_distance_m: number | null;
}

export async function listingDetail(db: Db, id: number): Promise<ListingDetailRow | undefined> {
  return listingsQuery(db).where('l.id', id).first('l.description', 'l.hours', 'l.nearest_subway_stop_id', 'l.nearest_subway_stop_distance_m');
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
export async function nearbyListings(db: Db, lat: number, lng: number, excludeId: number, limit: number): Promise<Array<ListingRow & { distance: number }>> {
  const dLat = 0.0135;
  const dLng = 0.0185;
  const rows = await listingsQuery(db)
    .select(db.raw(`${distanceKm('l.latitude', 'l.longitude')} as distance`, [lat, lat, lng]))
    .whereBetween('l.latitude', [lat - dLat, lat + dLat])
    .whereBetween('l.longitude', [lng - dLng, lng + dLng])
    .whereNot('l.id', excludeId)
    .orderBy('distance')
    .limit(limit);
  return rows.map((r) => ({ ...r, distance: Number(r.distance) }));
}

// Boundaries are ~7 KB of JSON each and change only when the City redraws them: each database
// keeps the parsed ones for ten minutes (NEIGHBOURHOOD_BOUNDARY_TTL_MS) instead of reading and
// parsing one per listing page.
/** Boxed: a neighbourhood without a boundary is remembered too. */
type KeptBoundary = { polygon: MultiPolygon | null };
const boundaryCache = new WeakMap<Db, MemoryCache<number, KeptBoundary>>();

export async function neighbourhoodBoundary(db: Db, id: number | null): Promise<MultiPolygon | null> {
  if (!id) return null;
  let cache = boundaryCache.get(db);
  if (!cache) boundaryCache.set(db, (cache = new MemoryCache<number, KeptBoundary>({ ttlMs: NEIGHBOURHOOD_BOUNDARY_TTL_MS, maxEntries: 1000 })));
  const kept = await cache.load(id, async () => {
    const row: { boundaries: MultiPolygon | string } | undefined = await db('neighbourhoods').where({ id }).first('boundaries');
    return { polygon: row ? (typeof row.boundaries === 'string' ? (JSON.parse(row.boundaries) as MultiPolygon) : row.boundaries) : null };
  });
  return kept.polygon;
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

/** Everything the listing detail page shows beyond the listing itself, read in parallel. */
export async function listingDetailExtras(db: Db, l: ListingDetailRow) {
  const hasPoint = l.latitude !== null && l.longitude !== null;
  const [photos, bestOf, station, nearby, boundary] = await Promise.all([
    listingPhotoPreview(db, l.id, 6),
    bestOfListsFor(db, l.id),
    nearestStation(db, l),
    hasPoint ? nearbyListings(db, l.latitude!, l.longitude!, l.id, 6) : Promise.resolve([]),
    neighbourhoodBoundary(db, l.neighbourhood_id),
  ]);
  return { photos, bestOf, station, nearby, boundary };
}
