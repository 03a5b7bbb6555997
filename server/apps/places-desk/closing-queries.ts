import type { Knex } from 'knex';
import moment from 'moment-timezone';
import { NotFoundError, ValidationError, type FieldErrors } from '../../http/errors';
import { closedDay, closingDayLabel } from '../../../shared/place-closing';
import { applyBestOfEdit } from '../best-of-editing/edit-queries';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { recordPlaceRevision } from './revision-queries';
import { closePlaceSchema } from './schemas';

// Closing a place (issue 39) and reopening it. A closing is one transaction: the place's
// closed_on, closed_note and date_modified, a place revision, the staff audit entry, and the
// place taken off every Best of list it is on, each removal with the change-log entry readers
// see ("Closed on Nov 20, 2026: …") and its own audit entry, made by best-of-editing's own edit
// (run inside this transaction, as a savepoint) so a list changes here exactly as it does on its
// staff page. Any failure leaves none of it. A closing dated ahead is allowed: the place counts as
// closed from that day (shared/place-closing.ts), but it leaves its lists at once ("Closing on
// …"), since an editor does not keep recommending a place that is about to close and nothing
// would come back to take it off on the day. Reopening clears the closing and does not put the
// place back on any list (an editor adds it again, with a reason, if it earns its place).

export interface ClosingActor {
  actor: StaffActor;
  now: Date;
  timeZone: string;
}

export interface ClosingInput {
  /** 'YYYY-MM-DD': the day it closed, or will close. */
  closedOn: string;
  note?: string;
}

/** What a closing or reopening changed: what the caller purges. */
export interface ClosingResult {
  place: { id: number; name: string; slug: string; typeSlug: string; neighbourhoodId: number | null };
  closedOn: string | null;
  /** The Best of lists the place left (none when reopening). */
  lists: Array<{ id: number; slug: string; title: string }>;
}

interface PlaceRow {
  id: number;
  name: string;
  slug: string;
  type_slug: string;
  neighbourhood_id: number | null;
  closed_on: string | Date | null;
  closed_note: string;
}

async function placeOf(trx: Knex.Transaction, listingId: number): Promise<PlaceRow> {
  const row: PlaceRow | undefined = await trx('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .where('l.id', listingId)
    .first('l.id', 'l.name', 'l.slug', 'lt.slug as type_slug', 'l.neighbourhood_id', 'l.closed_on', 'l.closed_note');
  if (!row) throw new NotFoundError();
  return row;
}

const placeOfRow = (p: PlaceRow): ClosingResult['place'] => ({
  id: Number(p.id),
  name: p.name,
  slug: p.slug,
  typeSlug: p.type_slug,
  neighbourhoodId: p.neighbourhood_id === null ? null : Number(p.neighbourhood_id),
});

/** The Best of lists a place is on, by title. */
export async function bestOfListsOfPlace(db: Knex | Knex.Transaction, listingId: number): Promise<Array<{ id: number; slug: string; title: string }>> {
  const rows: Array<{ id: number | string; slug: string; title: string }> = await db('best_of_list_items as i')
    .join('best_of_lists as b', 'b.id', 'i.list_id')
    .where('i.listing_id', listingId)
    .orderBy([{ column: 'b.title' }, { column: 'b.id' }])
    .select('b.id', 'b.slug', 'b.title');
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The words of a closing: "Closed on Nov 20, 2026: <note>" (or "Closing on …" for a day ahead). */
export function closingWords(closedOn: string, note: string, today: string): string {
  const head = `${closedOn > today ? 'Closing' : 'Closed'} on ${closingDayLabel(closedOn)}`;
  return note ? `${head}: ${note}` : head;
}

/** The input checked as the form is (a 400 naming closed_on or note), for callers that are not the form. */
function checkedInput(input: ClosingInput): { closedOn: string; note: string } {
  const parsed = closePlaceSchema.safeParse({ closed_on: input.closedOn, note: input.note ?? '' });
  if (!parsed.success) {
    const fields: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'closed_on');
      fields[field] = [...(fields[field] ?? []), issue.message];
    }
    throw new ValidationError(fields);
  }
  return { closedOn: parsed.data.closed_on, note: parsed.data.note };
}

/** Closes a place (or changes the day or note of its closing): see the top of this file. */
export async function closePlace(db: Knex, ctx: ClosingActor, listingId: number, input: ClosingInput): Promise<ClosingResult> {
  const { closedOn, note } = checkedInput(input);
  const today = moment.tz(ctx.now, ctx.timeZone).format('YYYY-MM-DD');
  return db.transaction(async (trx) => {
    const before = await placeOf(trx, listingId);
    const words = closingWords(closedOn, note, today);
    // Lists first, the place's row last: best-of-editing locks a list and then writes the
    // place's flag, so the same order here cannot deadlock with an editor's edit.
    const lists = await bestOfListsOfPlace(trx, listingId);
    for (const list of lists) {
      await applyBestOfEdit(trx, ctx, list.id, { kind: 'remove', listing: listingId, reason: words });
    }
    await trx('listings').where('id', listingId).update({ closed_on: closedOn, closed_note: note, date_modified: ctx.now });
    const from = { closed_on: closedDay(before.closed_on), closed_note: before.closed_note };
    await recordPlaceRevision(trx, ctx.actor, {
      listingId,
      kind: 'close',
      changes: {
        closed_on: { from: from.closed_on, to: closedOn },
        closed_note: { from: from.closed_note, to: note },
      },
      summary: words.charAt(0).toLowerCase() + words.slice(1),
    });
    await recordStaffAction(trx, ctx.actor, {
      action: 'place.close',
      subjectType: 'listing',
      subjectId: listingId,
      note: note || null,
      detail: { closed_on: closedOn, previously_closed_on: from.closed_on, best_of_lists: lists.map((l) => l.slug) },
    });
    return { place: placeOfRow(before), closedOn, lists };
  });
}

/** Reopens a closed place: clears its closing (its Best of lists stay as they are). */
export async function reopenPlace(db: Knex, ctx: ClosingActor, listingId: number): Promise<ClosingResult> {
  return db.transaction(async (trx) => {
    const before = await placeOf(trx, listingId);
    const was = closedDay(before.closed_on);
    if (!was) throw ValidationError.field('closed_on', 'This place is not marked closed.');
    await trx('listings').where('id', listingId).update({ closed_on: null, closed_note: '', date_modified: ctx.now });
    await recordPlaceRevision(trx, ctx.actor, {
      listingId,
      kind: 'reopen',
      changes: { closed_on: { from: was, to: null }, closed_note: { from: before.closed_note, to: '' } },
      summary: `reopened (had closed on ${closingDayLabel(was)})`,
    });
    await recordStaffAction(trx, ctx.actor, {
      action: 'place.reopen',
      subjectType: 'listing',
      subjectId: listingId,
      note: null,
      detail: { was_closed_on: was },
    });
    return { place: placeOfRow(before), closedOn: null, lists: [] };
  });
}

/** What the closing form shows of a place: its name and page, its closing, and its Best of lists. */
export interface ClosingFormRow {
  id: number;
  name: string;
  slug: string;
  typeSlug: string;
  closedOn: string | null;
  closedNote: string;
  lists: string[];
}

/** The closing form's place, or undefined when there is none. */
export async function closingFormRow(db: Knex, listingId: number): Promise<ClosingFormRow | undefined> {
  const row: PlaceRow | undefined = await db('listings as l')
    .join('listing_types as lt', 'lt.id', 'l.type_id')
    .where('l.id', listingId)
    .first('l.id', 'l.name', 'l.slug', 'lt.slug as type_slug', 'l.neighbourhood_id', 'l.closed_on', 'l.closed_note');
  if (!row) return undefined;
  const lists = await bestOfListsOfPlace(db, listingId);
  return { id: Number(row.id), name: row.name, slug: row.slug, typeSlug: row.type_slug, closedOn: closedDay(row.closed_on), closedNote: row.closed_note, lists: lists.map((l) => l.title) };
}
