import type { Knex } from 'knex';
import type { Db } from '../../db';
import { NotFoundError } from '../../http/errors';
import type { AccessibilityAttribute } from '../../../shared/accessibility';
import type { AccessibilityReportDTO } from '../../../shared/dto';
import type { ReportInput } from './schemas';
import { reportDTO, type ReportRow } from './queries';

// The writers. A member's report is one row per member, place and attribute: reporting again
// replaces it (and puts it back in the staff queue), 'unknown' withdraws it. Every change
// recounts that attribute's summary row (listing_accessibility) in the same transaction, so the
// counts the pages and the search filter read are never behind the reports.

export type ReportOutcome = { kind: 'created' | 'replaced'; report: AccessibilityReportDTO } | { kind: 'withdrawn' | 'unchanged' };

/** Records a member's report on one attribute of a place; a 404 when the place does not exist. */
export async function reportAccessibility(db: Db, memberId: number, listingId: number, input: ReportInput, now: Date): Promise<ReportOutcome> {
  return db.transaction(async (trx) => {
    // Locks the place's row: two reports on one place recount one after the other.
    const listing = await trx('listings').where({ id: listingId }).forUpdate().first('id');
    if (!listing) throw new NotFoundError();
    const key = { profile_id: memberId, listing_id: listingId, attribute: input.attribute };
    if (input.answer === 'unknown') {
      const gone = await trx('accessibility_reports').where(key).delete();
      if (!gone) return { kind: 'unchanged' };
      await recountAttribute(trx, listingId, input.attribute);
      return { kind: 'withdrawn' };
    }
    const existing = await trx('accessibility_reports').where(key).first('id');
    const fields = { answer: input.answer, note: input.note, date_updated: now, reviewed_at: null };
    const [row]: ReportRow[] = existing
      ? await trx('accessibility_reports').where({ id: existing.id }).update(fields).returning('*')
      : await trx('accessibility_reports').insert({ ...key, ...fields, date_created: now }).returning('*');
    await recountAttribute(trx, listingId, input.attribute);
    return { kind: existing ? 'replaced' : 'created', report: reportDTO(row) };
  });
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
