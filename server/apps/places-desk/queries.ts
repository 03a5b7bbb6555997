import type { Knex } from 'knex';
import type { Db } from '../../db';
import { containsPattern } from '../../db/like-pattern';
import { hoursColumns, readPlaceHours, type PlaceHours } from '../../../shared/place-hours';
import type { PlaceChanges } from '../../../shared/places-desk';

// The places desk's reads and writes of listings (issue 39): one place as the desk edits it
// (locked while a change is made), the names a revision line needs, the desk's list with its
// filters, and the writes of a change.

type Trx = Db | Knex.Transaction;

/** A place as the desk edits it: every field of PlaceChanges, and what its public address is made of. */
export interface DeskPlace {
  id: number;
  name: string;
  slug: string;
  type_id: number;
  type_slug: string;
  type_name: string;
  sub_type_id: number | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  phone: string;
  website: string;
  price_range: number | null;
  hours: PlaceHours | null;
  features: number[];
  services: number[];
  neighbourhood_id: number | null;
  neighbourhood_name: string | null;
  station_name: string | null;
  closed_on: string | null;
  date_modified: Date;
}

/** One place, locked for the transaction's change when `forUpdate`. */
export async function deskPlace(db: Trx, id: number, opts: { forUpdate?: boolean } = {}): Promise<DeskPlace | undefined> {
  if (opts.forUpdate) await db('listings').where({ id }).forUpdate().first('id');
  const row = await db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id')
    .leftJoin('subway_stops as s', 's.id', 'l.nearest_subway_stop_id')
    .where('l.id', id)
    .first(
      'l.id', 'l.name', 'l.slug', 'l.type_id', 'lt.slug as type_slug', 'lt.name as type_name', 'l.sub_type_id', 'l.address', 'l.latitude', 'l.longitude',
      'l.phone', 'l.website', 'l.price_range', 'l.hours', 'l.neighbourhood_id', 'n.name as neighbourhood_name', 's.name as station_name',
      db.raw("to_char(l.closed_on, 'YYYY-MM-DD') as closed_on"), 'l.date_modified',
    );
  if (!row) return undefined;
  const [features, services] = await Promise.all([
    db('listing_features').where({ listing_id: id }).orderBy('feature_id').pluck('feature_id'),
    db('listing_services').where({ listing_id: id }).orderBy('service_id').pluck('service_id'),
  ]);
  return {
    ...row,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    price_range: row.price_range === null ? null : Number(row.price_range),
    hours: readPlaceHours(row.hours),
    features: features.map(Number),
    services: services.map(Number),
  };
}

/** The type a sub-type belongs to, or undefined when there is no such sub-type. */
export async function subTypeParent(db: Trx, subTypeId: number): Promise<number | undefined> {
  const row = await db('listing_sub_types').where({ id: subTypeId }).first('type_id');
  return row ? Number(row.type_id) : undefined;
}

/** id → name of the rows of a table of names (listing_types, listing_sub_types, features, services) among `ids`. */
export async function namesOf(db: Trx, table: 'listing_types' | 'listing_sub_types' | 'features' | 'services', ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows: Array<{ id: number; name: string }> = await db(table).whereIn('id', ids).select('id', 'name');
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** The listing columns a change writes: the fields of PlaceChanges that are columns, and what follows from them. */
export type PlaceColumns = Omit<PlaceChanges, 'hours' | 'features' | 'services'> & {
  slug?: string;
  neighbourhood_id?: number | null;
  nearest_subway_stop_id?: number | null;
  nearest_subway_stop_distance_m?: number | null;
};

function rowOf(columns: PlaceColumns, hours: PlaceHours | null | undefined): Record<string, unknown> {
  return { ...columns, ...(hours !== undefined ? hoursColumns(hours) : {}) };
}

export async function updatePlace(trx: Knex.Transaction, id: number, columns: PlaceColumns, hours: PlaceHours | null | undefined, now: Date): Promise<void> {
  await trx('listings').where({ id }).update({ ...rowOf(columns, hours), date_modified: now });
}

export async function insertPlace(trx: Knex.Transaction, columns: PlaceColumns & { name: string; slug: string; type_id: number }, hours: PlaceHours | null, now: Date): Promise<number> {
  const [row] = await trx('listings')
    .insert({ ...rowOf(columns, hours), date_published: now, date_created: now, date_modified: now })
    .returning('id');
  return Number((row as { id: number }).id);
}

export async function setPlaceFeatures(trx: Knex.Transaction, id: number, ids: number[]): Promise<void> {
  await trx('listing_features').where({ listing_id: id }).delete();
  if (ids.length) await trx('listing_features').insert(ids.map((feature_id) => ({ listing_id: id, feature_id })));
}

export async function setPlaceServices(trx: Knex.Transaction, id: number, ids: number[]): Promise<void> {
  await trx('listing_services').where({ listing_id: id }).delete();
  if (ids.length) await trx('listing_services').insert(ids.map((service_id) => ({ listing_id: id, service_id })));
}

// ## The desk's list

export interface DeskListFilters {
  q: string;
  typeId: number | null;
  neighbourhoodId: number | null;
  closed: boolean;
  /** date_modified within the last 7 days of `now`. */
  recent: boolean;
  /** With pending readers' suggestions. */
  reported: boolean;
}

export interface DeskListRow {
  id: number;
  name: string;
  slug: string;
  type_name: string;
  type_slug: string;
  neighbourhood_name: string | null;
  address: string;
  closed_on: string | null;
  date_modified: Date;
  pending_suggestions: number;
}

export const RECENT_DAYS = 7;

export async function deskPlaces(db: Db, f: DeskListFilters, now: Date, page: { limit: number; offset: number }): Promise<{ rows: DeskListRow[]; count: number }> {
  // Pending suggestions a place has, counted once per place.
  const pending = db('place_suggestions').where({ status: 'pending' }).groupBy('listing_id').select('listing_id', db.raw('count(*)::int as n')).as('ps');
  const base = db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id')
    .leftJoin(pending, 'ps.listing_id', 'l.id');
  if (f.q) base.whereILike('l.name', containsPattern(f.q));
  if (f.typeId !== null) base.where('l.type_id', f.typeId);
  if (f.neighbourhoodId !== null) base.where('l.neighbourhood_id', f.neighbourhoodId);
  if (f.closed) base.whereNotNull('l.closed_on');
  if (f.recent) base.where('l.date_modified', '>=', new Date(now.getTime() - RECENT_DAYS * 86_400_000));
  if (f.reported) base.whereNotNull('ps.listing_id');
  const [rows, total] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'l.date_modified', order: 'desc' }, { column: 'l.id', order: 'desc' }])
      .limit(page.limit)
      .offset(page.offset)
      .select(
        'l.id', 'l.name', 'l.slug', 'lt.name as type_name', 'lt.slug as type_slug', 'n.name as neighbourhood_name', 'l.address',
        db.raw("to_char(l.closed_on, 'YYYY-MM-DD') as closed_on"), 'l.date_modified', db.raw('coalesce(ps.n, 0)::int as pending_suggestions'),
      ),
    base.clone().count<Array<{ count: string | number }>>({ count: '*' }),
  ]);
  return { rows: rows.map((r: DeskListRow) => ({ ...r, id: Number(r.id), pending_suggestions: Number(r.pending_suggestions) })), count: Number(total[0].count) };
}

export async function neighbourhoodOptions(db: Db): Promise<Array<{ id: number; name: string }>> {
  return db('neighbourhoods').orderBy('name').select('id', 'name');
}
