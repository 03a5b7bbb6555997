import type { Db } from '../../db';
import { NotFoundError } from '../../http/errors';
import { accessibilityLabel, type AccessibilityAttribute } from '../../../shared/accessibility';
import { urls } from '../../../shared/urls';
import { recountAttribute } from '../accessibility/queries';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';

// The accessibility queue: members' reports staff have not reviewed, grouped by place and
// attribute (oldest first), and the decision on one: verified yes or no (which outranks the
// reports, with the date and who), the verification cleared, or the reports dismissed as
// seen. Any decision takes that group's reports out of the queue; a member changing a report
// puts it back. Every decision is in the audit log, in its own transaction.

export const QUEUE_GROUPS_PER_PAGE = 30;

export type AccessibilityDecision = 'yes' | 'no' | 'clear' | 'dismiss';

export interface QueueReport {
  id: number;
  member_name: string;
  answer: 'yes' | 'no';
  note: string;
  date_updated: Date;
}

export interface QueueGroup {
  listing_id: number;
  listing_name: string;
  listing_url: string;
  attribute: AccessibilityAttribute;
  label: string;
  yes_count: number;
  no_count: number;
  verified: boolean | null;
  verified_at: Date | null;
  verified_by_email: string | null;
  reports: QueueReport[];
}

/** How many reports wait for a review (the count beside the queue in the staff menu). */
export async function unreviewedAccessibilityReportCount(db: Db): Promise<number> {
  const row: { n: number } | undefined = await db('accessibility_reports').whereNull('reviewed_at').first(db.raw('count(*)::int as n'));
  return row?.n ?? 0;
}

export async function accessibilityQueue(db: Db, page: { limit: number; offset: number }): Promise<{ count: number; groups: QueueGroup[] }> {
  const open = db('accessibility_reports').whereNull('reviewed_at');
  const [counts, keys] = await Promise.all([
    db.from(open.clone().distinct('listing_id', 'attribute').as('g')).first(db.raw('count(*)::int as n')) as Promise<{ n: number }>,
    open.clone()
      .groupBy('listing_id', 'attribute')
      .select('listing_id', 'attribute', db.raw('min(date_updated) as first_new'))
      .orderBy([{ column: 'first_new' }, { column: 'listing_id' }, { column: 'attribute' }])
      .limit(page.limit)
      .offset(page.offset) as Promise<Array<{ listing_id: number; attribute: string }>>,
  ]);
  if (!keys.length) return { count: Number(counts.n), groups: [] };
  const ids = [...new Set(keys.map((k) => Number(k.listing_id)))];
  const [listings, summaries, reports] = await Promise.all([
    db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').whereIn('l.id', ids).select('l.id', 'l.name', 'l.slug', 'lt.slug as type_slug'),
    db('listing_accessibility as la').leftJoin('profiles as p', 'p.id', 'la.verified_by').whereIn('la.listing_id', ids).select('la.*', 'p.email as verified_by_email'),
    db('accessibility_reports as r').join('profiles as p', 'p.id', 'r.profile_id').whereIn('r.listing_id', ids).whereNull('r.reviewed_at')
      .orderBy([{ column: 'r.date_updated' }, { column: 'r.id' }])
      .select('r.id', 'r.listing_id', 'r.attribute', 'r.answer', 'r.note', 'r.date_updated', 'p.full_name as member_name'),
  ]);
  type ListingRow = { id: number; name: string; slug: string; type_slug: string };
  const listingById = new Map((listings as ListingRow[]).map((l) => [Number(l.id), l]));
  const groups = keys.map((k): QueueGroup => {
    const listingId = Number(k.listing_id);
    const l = listingById.get(listingId)!;
    const s = summaries.find((x: { listing_id: number; attribute: string }) => Number(x.listing_id) === listingId && x.attribute === k.attribute);
    const attribute = k.attribute as AccessibilityAttribute;
    return {
      listing_id: listingId,
      listing_name: l.name,
      listing_url: urls.listing(l.type_slug, l.slug, listingId),
      attribute,
      label: accessibilityLabel(attribute),
      yes_count: Number(s?.yes_count ?? 0),
      no_count: Number(s?.no_count ?? 0),
      verified: s?.verified ?? null,
      verified_at: s?.verified_at ?? null,
      verified_by_email: s?.verified_by_email ?? null,
      reports: reports
        .filter((r: { listing_id: number; attribute: string }) => Number(r.listing_id) === listingId && r.attribute === k.attribute)
        .map((r: QueueReport) => ({ ...r, id: Number(r.id), note: r.note ?? '', member_name: r.member_name || 'A member' })),
    };
  });
  return { count: Number(counts.n), groups };
}

/** Staff's decision on one attribute of one place; a 404 when the place does not exist. */
export async function decideAccessibility(db: Db, actor: StaffActor, listingId: number, attribute: AccessibilityAttribute, decision: AccessibilityDecision, note: string, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const listing = await trx('listings').where({ id: listingId }).forUpdate().first('id', 'name');
    if (!listing) throw new NotFoundError();
    const key = { listing_id: listingId, attribute };
    if (decision === 'yes' || decision === 'no') {
      const verification = { verified: decision === 'yes', verified_at: now, verified_by: actor.id };
      await trx('listing_accessibility').insert({ ...key, ...verification }).onConflict(['listing_id', 'attribute']).merge(['verified', 'verified_at', 'verified_by']);
    } else if (decision === 'clear') {
      await trx('listing_accessibility').where(key).update({ verified: null, verified_at: null, verified_by: null });
      // With no reports either, the attribute is unknown again (the recount drops the row).
      await recountAttribute(trx, listingId, attribute);
    }
    const reviewed = await trx('accessibility_reports').where(key).whereNull('reviewed_at').update({ reviewed_at: now });
    await recordStaffAction(trx, actor, {
      action: decision === 'dismiss' ? 'accessibility.dismiss' : decision === 'clear' ? 'accessibility.clear' : `accessibility.verify_${decision}`,
      subjectType: 'listing',
      subjectId: listingId,
      note: note || null,
      detail: { attribute, listing: listing.name, reports_reviewed: reviewed },
    });
  });
}
