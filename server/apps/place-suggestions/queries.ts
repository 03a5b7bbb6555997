import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { SuggestionKind, SuggestionStatus } from '../../../shared/place-suggestions';
import { readPlaceHours, type PlaceHours } from '../../../shared/place-hours';

// Table place_suggestions (migration 20261130000400): readers' suggested edits. Nothing here
// is read by a public page; the staff page reads the pending ones, the export a member's own.

/** A place as the suggestion form and the staff page need it: its page and its current values. */
export interface SuggestionPlace {
  id: number;
  name: string;
  slug: string;
  type_slug: string;
  neighbourhood_id: number | null;
  address: string;
  phone: string;
  website: string;
  /** Read as the desk reads it (the first shape too), null when not known. */
  hours: PlaceHours | null;
  /** 'YYYY-MM-DD' or null while it is open. */
  closed_on: string | null;
}

const PLACE_COLUMNS = ['l.id', 'l.name', 'l.slug', 'lt.slug as type_slug', 'l.neighbourhood_id', 'l.address', 'l.phone', 'l.website', 'l.hours'];

function placeOfRow(row: SuggestionPlace): SuggestionPlace {
  return { ...row, id: Number(row.id), neighbourhood_id: row.neighbourhood_id === null ? null : Number(row.neighbourhood_id), hours: readPlaceHours(row.hours), address: row.address ?? '', phone: row.phone ?? '', website: row.website ?? '' };
}

/** The place, or undefined when there is none. */
export async function suggestionPlace(db: Db | Knex.Transaction, listingId: number): Promise<SuggestionPlace | undefined> {
  const row: SuggestionPlace | undefined = await db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .where('l.id', listingId)
    .first([...PLACE_COLUMNS, db.raw("to_char(l.closed_on, 'YYYY-MM-DD') as closed_on")]);
  return row && placeOfRow(row);
}

export interface NewSuggestion {
  listing_id: number;
  member_id: number | null;
  guest_key: string | null;
  guest_email: string | null;
  kind: SuggestionKind;
  value: unknown;
  base: unknown;
  note: string;
  created_at: Date;
}

export async function insertSuggestion(db: Db, s: NewSuggestion): Promise<number> {
  const [row] = await db('place_suggestions')
    .insert({ ...s, value: JSON.stringify(s.value ?? null), base: JSON.stringify(s.base ?? null) })
    .returning('id');
  return Number((row as { id: number | string }).id);
}

export interface SuggestionRow extends NewSuggestion {
  id: number;
  status: SuggestionStatus;
}

const SUGGESTION_COLUMNS = ['s.id', 's.listing_id', 's.member_id', 's.guest_key', 's.guest_email', 's.kind', 's.value', 's.base', 's.note', 's.status', 's.created_at'];

const asSuggestion = (r: SuggestionRow): SuggestionRow => ({ ...r, id: Number(r.id), listing_id: Number(r.listing_id), member_id: r.member_id === null ? null : Number(r.member_id) });

/** Pending suggestions with their places, oldest place first (by its oldest suggestion), at most `limit`. */
export async function pendingSuggestions(db: Db, limit: number): Promise<{ rows: SuggestionRow[]; places: SuggestionPlace[] }> {
  const rows: SuggestionRow[] = await db('place_suggestions as s').where('s.status', 'pending').orderBy([{ column: 's.listing_id' }, { column: 's.id' }]).limit(limit).select(SUGGESTION_COLUMNS);
  const ids = [...new Set(rows.map((r) => Number(r.listing_id)))];
  const places: SuggestionPlace[] = ids.length
    ? await db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').whereIn('l.id', ids).select([...PLACE_COLUMNS, db.raw("to_char(l.closed_on, 'YYYY-MM-DD') as closed_on")])
    : [];
  return { rows: rows.map(asSuggestion), places: places.map(placeOfRow) };
}

/**
 * Places with at least `min` pending "closed" reports from different people (a member by their
 * account, a guest by their address key), most reports first.
 */
export async function placesReportedClosed(db: Db, min: number): Promise<Array<{ listing_id: number; name: string; reporters: number }>> {
  const rows: Array<{ listing_id: number | string; name: string; reporters: number | string }> = await db('place_suggestions as s')
    .join('listings as l', 'l.id', 's.listing_id')
    .where({ 's.status': 'pending', 's.kind': 'closed' })
    .groupBy('s.listing_id', 'l.name')
    .havingRaw("count(distinct coalesce('m' || s.member_id::text, 'g' || s.guest_key)) >= ?", [min])
    .orderByRaw('3 desc, 1')
    .select('s.listing_id', 'l.name', db.raw("count(distinct coalesce('m' || s.member_id::text, 'g' || s.guest_key))::int as reporters"));
  return rows.map((r) => ({ listing_id: Number(r.listing_id), name: r.name, reporters: Number(r.reporters) }));
}

/** One suggestion, or undefined. */
export async function suggestionById(db: Db | Knex.Transaction, id: number): Promise<SuggestionRow | undefined> {
  const row: SuggestionRow | undefined = await db('place_suggestions as s').where('s.id', id).first(SUGGESTION_COLUMNS);
  return row && asSuggestion(row);
}

/** A place's pending suggestions of one kind, locked until the transaction ends (two staff deciding the same group wait for each other). */
export async function lockPendingOfKind(trx: Knex.Transaction, listingId: number, kind: SuggestionKind): Promise<SuggestionRow[]> {
  const rows: SuggestionRow[] = await trx('place_suggestions as s').where({ 's.listing_id': listingId, 's.kind': kind, 's.status': 'pending' }).orderBy('s.id').forUpdate().select(SUGGESTION_COLUMNS);
  return rows.map(asSuggestion);
}

export async function markDecided(trx: Knex.Transaction, ids: number[], status: Exclude<SuggestionStatus, 'pending'>, by: number | null, at: Date): Promise<void> {
  await trx('place_suggestions').whereIn('id', ids).update({ status, decided_at: at, decided_by: by });
}

/** Who to tell that their suggestion was applied: each member's address and each guest's, once. */
export async function recipientsOf(db: Db, ids: number[]): Promise<Array<{ email: string; name: string | null }>> {
  if (!ids.length) return [];
  const rows: Array<{ email: string | null; name: string | null }> = await db('place_suggestions as s')
    .leftJoin('profiles as p', 'p.id', 's.member_id')
    .whereIn('s.id', ids)
    .select(db.raw('coalesce(p.email, s.guest_email) as email'), 'p.full_name as name');
  const seen = new Set<string>();
  const out: Array<{ email: string; name: string | null }> = [];
  for (const r of rows) {
    if (!r.email || seen.has(r.email.toLowerCase())) continue;
    seen.add(r.email.toLowerCase());
    out.push({ email: r.email, name: r.name || null });
  }
  return out;
}

/** The staff menu's badge: suggestions waiting for a decision. */
export async function pendingSuggestionCount(db: Db): Promise<number> {
  const row = await db('place_suggestions').where('status', 'pending').count<{ count: string | number }>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}
