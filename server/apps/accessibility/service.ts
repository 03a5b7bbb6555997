import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import type { AccessibilityReportDTO } from '../../../shared/dto';
import type { ReportInput } from './schemas';
import { deleteReport, findReportId, insertReport, lockListing, recountAttribute, reportDTO, updateReport, type ReportFields, type ReportKey } from './queries';
import { createReportRateLimit } from './rate-limit';

// The writer. A member's report is one row per member, place and attribute: reporting again
// replaces it (and puts it back in the staff queue), 'unknown' withdraws it. Every change
// recounts that attribute's summary row (listing_accessibility) in the same transaction, so the
// counts the pages and the search filter read are never behind the reports.

export type ReportOutcome = { kind: 'created' | 'replaced'; report: AccessibilityReportDTO } | { kind: 'withdrawn' | 'unchanged' };

export type AccessibilityService = ReturnType<typeof createAccessibilityService>;

/**
 * Built once per app by the registry (apps/index.ts), so that the API and the no-JS form draw
 * on one report limiter: the form must not be a way around the API's limit.
 */
export function createAccessibilityService({ db, config, now }: Pick<AppContext, 'db' | 'config' | 'now'>) {
  return {
    /** Reports per member, to put before the report handlers (rate-limit.ts). */
    rateLimit: createReportRateLimit(config.rateLimits, db),

    /** Records a member's report on one attribute of a place; a 404 when the place does not exist. */
    async report(memberId: number, listingId: number, input: ReportInput): Promise<ReportOutcome> {
      const at = now();
      return db.transaction(async (trx) => {
        // Locks the place's row: two reports on one place recount one after the other.
        if (!(await lockListing(trx, listingId))) throw new NotFoundError();
        const key: ReportKey = { profile_id: memberId, listing_id: listingId, attribute: input.attribute };
        if (input.answer === 'unknown') {
          const gone = await deleteReport(trx, key);
          if (!gone) return { kind: 'unchanged' };
          await recountAttribute(trx, listingId, input.attribute);
          return { kind: 'withdrawn' };
        }
        const existing = await findReportId(trx, key);
        const fields: ReportFields = { answer: input.answer, note: input.note, date_updated: at, reviewed_at: null };
        const row = existing !== undefined ? await updateReport(trx, existing, fields) : await insertReport(trx, key, fields, at);
        await recountAttribute(trx, listingId, input.attribute);
        return { kind: existing !== undefined ? 'replaced' : 'created', report: reportDTO(row) };
      });
    },
  };
}
