import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { NotFoundError, ValidationError } from '../../http/errors';
import type { StoryDoc } from '../../../shared/newsroom';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { recordPlaceRevision, type FieldChange } from './revision-queries';
import type { PlaceReviewForm } from './schemas';

// A place's review (issue 39): its document in the story schema (review_doc, migration
// 20261201000100) with its plain text beside it (review), byline, author and when it was
// published, in listings' own columns (migration 20261130000300_place_reviews). A save is one
// transaction: the place, a place revision (field `review`, and `byline` / `review_published`
// when they change) and the staff audit entry; a save that changes nothing writes neither.
// Two editors: the form carries the version it was made on (reviewVersion); a save made on
// an older one is refused (ReviewConflictError) as the desk's changePlace refuses a field
// changed since its `expected` value, so nobody's words are overwritten unseen.

export interface PlaceReviewRow {
  id: number;
  name: string;
  slug: string;
  type_slug: string;
  neighbourhood_id: number | null;
  description: string;
  review: string;
  /** The review's document; null for a review saved as plain text before the editor. */
  review_doc: StoryDoc | null;
  review_byline: string;
  review_author_id: number | null;
  review_published_at: Date | null;
  /** The author's account name, for the desk ("last saved by"). */
  author_name: string | null;
}

function placeReviewQuery(db: Knex | Knex.Transaction, listingId: number) {
  return db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .leftJoin('profiles as p', 'p.id', 'l.review_author_id')
    .where('l.id', listingId)
    .first(
      'l.id', 'l.name', 'l.slug', 'lt.slug as type_slug', 'l.neighbourhood_id', 'l.description',
      'l.review', 'l.review_doc', 'l.review_byline', 'l.review_author_id', 'l.review_published_at', 'p.full_name as author_name',
    );
}

/**
 * The saved review's version: a digest of what a save changes (text, document, byline,
 * published). A save of the place's other fields leaves it as it was.
 */
export function reviewVersion(row: Pick<PlaceReviewRow, 'review' | 'review_doc' | 'review_byline' | 'review_published_at'>): string {
  const published = row.review_published_at ? new Date(row.review_published_at).toISOString() : null;
  // jsonb keeps its own key order, the same on every read, so the digest is stable.
  return createHash('sha256').update(JSON.stringify([row.review, row.review_doc, row.review_byline, published])).digest('hex').slice(0, 16);
}

/** JSON with every object's keys sorted: jsonb answers its keys in its own order, not the editor's. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value,
  );
}

/** Someone else saved the review since the form was made: refused, what was typed kept. */
export class ReviewConflictError extends ValidationError {
  constructor(public readonly current: PlaceReviewRow) {
    super({ review: [`${current.author_name ?? 'Someone'} saved this review after you opened it. Nothing of yours was saved: your text is still below. Compare it with theirs, then save again to replace theirs.`] });
  }
}

/** A place with its review, or undefined when there is no such place. */
export async function placeReview(db: Knex, listingId: number): Promise<PlaceReviewRow | undefined> {
  return placeReviewQuery(db, listingId);
}

export interface ReviewSaveResult {
  place: { id: number; slug: string; typeSlug: string; neighbourhoodId: number | null };
  /** 'published', 'unpublished', 'saved' (changed, same state) or 'unchanged'. */
  done: 'published' | 'unpublished' | 'saved' | 'unchanged';
  summary: string;
}

const chars = (n: number) => `${n.toLocaleString('en-US')} characters`;

/** The revision's line: "review edited (1,204 → 1,380 characters)", "review published", … */
export function reviewSummary(before: { review: string; byline: string; published: boolean }, after: { review: string; byline: string; published: boolean }): string {
  const parts: string[] = [];
  if (before.review !== after.review) {
    parts.push(before.review ? `review edited (${before.review.length.toLocaleString('en-US')} → ${chars(after.review.length)})` : `review written (${chars(after.review.length)})`);
  }
  if (before.byline !== after.byline) parts.push(before.byline ? `byline ${before.byline} → ${after.byline}` : `byline ${after.byline}`);
  if (before.published !== after.published) parts.push(after.published ? 'review published' : 'review unpublished');
  return parts.join('; ');
}

/**
 * Saves a place's review as the form says: its text and byline, published (keeping the first
 * publishing's date while it stays published) or not. A place that is not there is a 404.
 */
export async function savePlaceReview(db: Knex, ctx: { actor: StaffActor; now: Date }, listingId: number, form: PlaceReviewForm): Promise<ReviewSaveResult> {
  return db.transaction(async (trx) => {
    // Locked: two editors' saves run one after the other, each revision against what it replaced.
    const row: PlaceReviewRow | undefined = await placeReviewQuery(trx, listingId).forUpdate('l');
    if (!row) throw new NotFoundError();
    const place = { id: Number(row.id), slug: row.slug, typeSlug: row.type_slug, neighbourhoodId: row.neighbourhood_id === null ? null : Number(row.neighbourhood_id) };
    const wasPublished = row.review_published_at !== null;
    const publish = form.publish === 'yes';
    if (form.version !== null && form.version !== reviewVersion(row)) throw new ReviewConflictError(row);
    const before = { review: row.review, byline: row.review_byline, published: wasPublished };
    const after = { review: form.review, byline: form.byline, published: publish };
    // A plain review's document is its paragraphs: re-saving it unchanged from the editor is no change.
    const docChanged = row.review_doc ? canonicalJson(row.review_doc) !== canonicalJson(form.doc) : before.review !== after.review || form.doc.content.some((n) => n.type !== 'paragraph' || (n.content ?? []).some((c) => c.marks?.length));
    const changes: Record<string, FieldChange> = {};
    if (before.review !== after.review) changes.review = { from: before.review, to: after.review };
    else if (docChanged) changes.review_formatting = { from: row.review_doc, to: form.doc };
    if (before.byline !== after.byline) changes.byline = { from: before.byline, to: after.byline };
    if (before.published !== after.published) changes.review_published = { from: before.published, to: after.published };
    if (!Object.keys(changes).length) return { place, done: 'unchanged', summary: '' };

    const publishedAt = publish ? (wasPublished ? row.review_published_at : ctx.now) : null;
    await trx('listings').where('id', listingId).update({
      review: after.review,
      review_doc: JSON.stringify(form.doc),
      review_byline: after.byline,
      review_author_id: ctx.actor.id,
      review_published_at: publishedAt,
      date_modified: ctx.now,
    });
    const summary = [reviewSummary(before, after), changes.review_formatting ? 'review formatting edited' : ''].filter(Boolean).join('; ');
    const revisionId = await recordPlaceRevision(trx, ctx.actor, { listingId, kind: 'edit', changes, summary });
    const done = before.published === after.published ? 'saved' : publish ? 'published' : 'unpublished';
    await recordStaffAction(trx, ctx.actor, {
      action: `place.review_${done === 'saved' ? 'edit' : done === 'published' ? 'publish' : 'unpublish'}`,
      subjectType: 'listing',
      subjectId: listingId,
      note: summary,
      detail: { revision_id: revisionId, listing_name: row.name, characters: after.review.length, byline: after.byline },
    });
    return { place, done, summary };
  });
}
