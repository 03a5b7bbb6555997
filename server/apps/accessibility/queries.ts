import type { Knex } from 'knex';
import type { Db } from '../../db';
import { ACCESSIBILITY_ATTRIBUTES, ACCESSIBILITY_MAJORITY, accessibilityValue, isAccessibilityAttribute, type AccessibilityAttribute } from '../../../shared/accessibility';
import type { AccessibilityAttributeDTO, AccessibilityReportDTO } from '../../../shared/dto';

// The read side: a place's attributes as pages, the API and JSON-LD show them, a member's own
// reports, and the listing search's filter. Then the summary's recount, which the report
// writer (service.ts), staff's decisions and the account purge all run in their transactions.

export interface ReportRow {
  id: number;
  listing_id: number;
  attribute: string;
  answer: 'yes' | 'no';
  note: string | null;
  date_created: Date | string;
  date_updated: Date | string;
}

export interface SummaryRow {
  attribute: string;
  yes_count: number | string;
  no_count: number | string;
  last_reported_at: Date | string | null;
  verified: boolean | null;
  verified_at: Date | string | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function reportDTO(r: ReportRow): AccessibilityReportDTO {
  return {
    id: Number(r.id),
    listing: Number(r.listing_id),
    attribute: r.attribute as AccessibilityAttribute,
    answer: r.answer,
    note: r.note ?? '',
    date_created: iso(r.date_created)!,
    date_updated: iso(r.date_updated)!,
  };
}

/** Every attribute in the fixed order, unknown where nobody has said anything. */
export function attributeDTOs(rows: SummaryRow[]): AccessibilityAttributeDTO[] {
  const byKey = new Map(rows.map((r) => [r.attribute, r]));
  return ACCESSIBILITY_ATTRIBUTES.map(({ key, label }) => {
    const r = byKey.get(key);
    const yes = Number(r?.yes_count ?? 0);
    const no = Number(r?.no_count ?? 0);
    const verified = r?.verified ?? null;
    const times = [r?.verified_at ?? null, r?.last_reported_at ?? null].filter((d): d is Date | string => d !== null).map((d) => new Date(d).getTime());
    return {
      attribute: key,
      label,
      value: accessibilityValue({ verified, yes_count: yes, no_count: no }),
      status: verified !== null ? 'verified' : yes + no > 0 ? 'reported' : 'unknown',
      verified,
      verified_at: verified !== null ? iso(r?.verified_at ?? null) : null,
      yes_count: yes,
      no_count: no,
      last_confirmed: times.length ? new Date(Math.max(...times)).toISOString() : null,
    };
  });
}

/** Whether the place exists (the API answers 404 for one that does not). */
export async function listingExists(db: Db, listingId: number): Promise<boolean> {
  return Boolean(await db('listings').where({ id: listingId }).first('id'));
}

/** The place the member's report page is about: its name and what its URL is made of. */
export async function reportPageListing(db: Db, listingId: number): Promise<{ id: number; name: string; slug: string; type_slug: string } | undefined> {
  return db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').where('l.id', listingId).first('l.id', 'l.name', 'l.slug', 'lt.slug as type_slug');
}

/** What the place's URL is made of, for the cache purge after a report. */
export async function listingUrlSlugs(db: Db, listingId: number): Promise<{ slug: string; type_slug: string; neighbourhood_id: number | null } | undefined> {
  return db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').where('l.id', listingId).first('l.slug', 'lt.slug as type_slug', 'l.neighbourhood_id');
}

/** A place's accessibility: one query, every attribute. */
export async function listingAccessibility(db: Db, listingId: number): Promise<AccessibilityAttributeDTO[]> {
  const rows: SummaryRow[] = await db('listing_accessibility')
    .where({ listing_id: listingId })
    .select('attribute', 'yes_count', 'no_count', 'last_reported_at', 'verified', 'verified_at');
  return attributeDTOs(rows.filter((r) => isAccessibilityAttribute(r.attribute)));
}

/** The member's current reports on one place, by attribute. */
export async function memberReports(db: Db, memberId: number, listingId: number): Promise<AccessibilityReportDTO[]> {
  const rows: ReportRow[] = await db('accessibility_reports').where({ profile_id: memberId, listing_id: listingId }).orderBy('id');
  return rows.map(reportDTO);
}

/**
 * The listing search's filter, on `listings as l`: for each attribute, places verified yes,
 * or unverified with a clear majority of reports yes (ACCESSIBILITY_MAJORITY). One semi-join
 * per attribute, each an index probe of the summary's primary key.
 */
export function whereAccessible(qb: Knex.QueryBuilder, db: Db, attributes: readonly AccessibilityAttribute[]): void {
  const { min, ratio } = ACCESSIBILITY_MAJORITY;
  for (const attribute of attributes) {
    qb.whereExists(
      db('listing_accessibility as la')
        .whereRaw('la.listing_id = l.id')
        .where('la.attribute', attribute)
        .whereRaw('(la.verified is true or (la.verified is null and la.yes_count >= ? and la.yes_count >= ? * la.no_count))', [min, ratio])
        .select(db.raw('1')),
    );
  }
}

/** The key of a member's report: one per member, place and attribute. */
export type ReportKey = { profile_id: number; listing_id: number; attribute: string };

/** The fields a report sets each time it is made (and that put it back in the staff queue). */
export type ReportFields = { answer: ReportRow['answer']; note: string; date_updated: Date; reviewed_at: null };

/** Locks the place's row (FOR UPDATE) for the rest of the transaction; answers whether it exists. */
export async function lockListing(trx: Knex.Transaction, listingId: number): Promise<boolean> {
  return Boolean(await trx('listings').where({ id: listingId }).forUpdate().first('id'));
}

/** Withdraws a member's report; answers how many rows went (0 or 1). */
export async function deleteReport(trx: Knex.Transaction, key: ReportKey): Promise<number> {
  return trx('accessibility_reports').where(key).delete();
}

/** The id of a member's current report on one attribute, if there is one. */
export async function findReportId(trx: Knex.Transaction, key: ReportKey): Promise<number | undefined> {
  const existing = await trx('accessibility_reports').where(key).first('id');
  return existing?.id;
}

export async function updateReport(trx: Knex.Transaction, id: number, fields: ReportFields): Promise<ReportRow> {
  const [row]: ReportRow[] = await trx('accessibility_reports').where({ id }).update(fields).returning('*');
  return row;
}

export async function insertReport(trx: Knex.Transaction, key: ReportKey, fields: ReportFields, at: Date): Promise<ReportRow> {
  const [row]: ReportRow[] = await trx('accessibility_reports').insert({ ...key, ...fields, date_created: at }).returning('*');
  return row;
}

/**
 * Recounts one attribute of one place from its reports, keeping staff's verification. A
 * summary with no reports and no verification is deleted: the attribute is unknown again.
 */
export async function recountAttribute(trx: Knex | Knex.Transaction, listingId: number, attribute: AccessibilityAttribute | string): Promise<void> {
  const counts = await trx('accessibility_reports')
    .where({ listing_id: listingId, attribute })
    .first(
      trx.raw(`count(*) filter (where answer = 'yes')::int as yes_count`),
      trx.raw(`count(*) filter (where answer = 'no')::int as no_count`),
      trx.raw('max(date_updated) as last_reported_at'),
    );
  const yes = Number(counts?.yes_count ?? 0);
  const no = Number(counts?.no_count ?? 0);
  if (yes + no === 0) {
    await trx('listing_accessibility').where({ listing_id: listingId, attribute }).whereNull('verified').delete();
    await trx('listing_accessibility').where({ listing_id: listingId, attribute }).update({ yes_count: 0, no_count: 0, last_reported_at: null });
    return;
  }
  await trx('listing_accessibility')
    .insert({ listing_id: listingId, attribute, yes_count: yes, no_count: no, last_reported_at: counts?.last_reported_at ?? null })
    .onConflict(['listing_id', 'attribute'])
    .merge(['yes_count', 'no_count', 'last_reported_at']);
}

/**
 * Deletes every report of a member (the account purge) and recounts what they touched, one
 * place at a time in id order, as the report writer locks them.
 */
export async function deleteMemberReports(trx: Knex.Transaction, memberId: number): Promise<number> {
  const gone: Array<{ listing_id: number; attribute: string }> = await trx('accessibility_reports').where({ profile_id: memberId }).delete().returning(['listing_id', 'attribute']);
  const touched = [...new Map(gone.map((r) => [`${r.listing_id}\u0000${r.attribute}`, r])).values()].sort((a, b) => a.listing_id - b.listing_id || a.attribute.localeCompare(b.attribute));
  for (const r of touched) await recountAttribute(trx, Number(r.listing_id), r.attribute);
  return gone.length;
}
