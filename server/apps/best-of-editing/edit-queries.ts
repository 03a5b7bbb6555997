import type { Knex } from 'knex';
import moment from 'moment-timezone';
import { NotFoundError, ValidationError } from '../../http/errors';
import type { BestOfChangeKind } from '../articles/queries';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';

// The edits staff make to a Best of list. Each runs in one transaction that locks the list,
// changes it, writes the change log entry readers see (with the editor's reason) and the staff
// audit log entry: an edit that fails leaves none of the three. Ranks are 1..n in the list's
// order, rewritten after every edit, so "moved up from No. 5 to No. 4" is what a reader saw.
// Also what the staff pages read of the lists themselves.

export type BestOfEdit =
  | { kind: 'add'; listing: number; blurb: string; reason: string }
  | { kind: 'remove'; listing: number; reason: string }
  | { kind: 'move'; listing: number; direction: 'up' | 'down'; reason: string }
  | { kind: 'criteria'; criteria: string; reason: string }
  | { kind: 'visited'; listing: number; visitedOn: string; reason: string };

export interface BestOfEditResult {
  changeId: number;
  kind: BestOfChangeKind;
  list: { id: number; slug: string; title: string };
}

interface Pick {
  listing_id: number;
  name: string;
  position: number;
}

interface ChangeFields {
  kind: BestOfChangeKind;
  listing: { id: number; name: string } | null;
  from?: number | null;
  to?: number | null;
}

/** A list as its staff page shows it. */
export interface BestOfListHead {
  id: number;
  slug: string;
  title: string;
  criteria: string;
}

/** The list with this slug, or undefined when there is none. */
export async function bestOfListBySlug(db: Knex, slug: string): Promise<BestOfListHead | undefined> {
  return db('best_of_lists').where({ slug }).first('id', 'slug', 'title', 'criteria');
}

/** A list on the staff index: its number of picks and when it last changed (null: never). */
export interface BestOfListSummary {
  slug: string;
  title: string;
  picks: number;
  last_change: Date | null;
}

/** Every list, by title, for the staff index. */
export async function bestOfListSummaries(db: Knex): Promise<BestOfListSummary[]> {
  return db('best_of_lists as b')
    .select('b.slug', 'b.title')
    .select(db.raw('(select count(*)::int from best_of_list_items i where i.list_id = b.id) as picks'))
    .select(db.raw('(select max(c.created_at) from best_of_list_changes c where c.list_id = b.id) as last_change'))
    .orderBy([{ column: 'b.title' }, { column: 'b.id' }]);
}

/**
 * A new list, with no picks yet, and its staff audit entry, in one transaction. Its change log
 * starts empty: readers see "No changes since the list was published". A slug already taken
 * is refused on the slug field (checked under the unique index, so two editors cannot both
 * get it).
 */
export async function createBestOfList(
  db: Knex,
  ctx: { actor: StaffActor; now: Date },
  list: { title: string; slug: string; intro: string; criteria: string },
): Promise<{ id: number; slug: string }> {
  return db.transaction(async (trx) => {
    const taken = await trx('best_of_lists').where('slug', list.slug).first('id');
    if (taken) throw ValidationError.field('slug', 'Another list has this address: choose another.');
    const [row] = await trx('best_of_lists')
      .insert({ title: list.title, slug: list.slug, intro: list.intro, criteria: list.criteria, date_published: ctx.now })
      .onConflict('slug')
      .ignore()
      .returning('id');
    if (!row) throw ValidationError.field('slug', 'Another list has this address: choose another.');
    const id = Number(typeof row === 'object' ? row.id : row);
    await recordStaffAction(trx, ctx.actor, { action: 'best_of.created', subjectType: 'best_of_list', subjectId: id, detail: { list: list.slug, title: list.title } });
    return { id, slug: list.slug };
  });
}

/** The day in the city (its "today" decides whether a visit is in the future). */
export const cityDay = (now: Date, timeZone: string): string => moment.tz(now, timeZone).format('YYYY-MM-DD');

async function picksOf(trx: Knex.Transaction, listId: number): Promise<Pick[]> {
  const rows: Array<{ listing_id: number | string; name: string; position: number }> = await trx('best_of_list_items as i')
    .join('listings as l', 'l.id', 'i.listing_id')
    .where('i.list_id', listId)
    .orderBy([{ column: 'i.position' }, { column: 'i.listing_id' }])
    .select('i.listing_id', 'l.name', 'i.position');
  return rows.map((r) => ({ ...r, listing_id: Number(r.listing_id) }));
}

/** Writes ranks 1..n for the list's picks in this order (only the rows whose rank changed). */
async function renumber(trx: Knex.Transaction, listId: number, order: Pick[]): Promise<void> {
  for (const [i, p] of order.entries()) {
    if (p.position !== i + 1) await trx('best_of_list_items').where({ list_id: listId, listing_id: p.listing_id }).update({ position: i + 1 });
  }
}

function indexOnList(picks: Pick[], listingId: number): number {
  const i = picks.findIndex((p) => p.listing_id === listingId);
  if (i < 0) throw ValidationError.field('listing', 'That place is not on this list.');
  return i;
}

/** Whether a place is on any Best of list: the listing's flag the hubs filter on. */
async function refreshBestOfFlag(trx: Knex.Transaction, listingId: number): Promise<void> {
  await trx('listings')
    .where('id', listingId)
    .update({ appears_in_best_of_lists: trx.raw('exists (select 1 from best_of_list_items i where i.listing_id = ?)', [listingId]) });
}

/** Makes the change to the list, and answers what the change log records. */
async function change(trx: Knex.Transaction, listId: number, edit: BestOfEdit, today: string): Promise<ChangeFields> {
  if (edit.kind === 'criteria') {
    await trx('best_of_lists').where('id', listId).update({ criteria: edit.criteria });
    return { kind: 'criteria', listing: null };
  }
  const picks = await picksOf(trx, listId);
  if (edit.kind === 'add') {
    const place: { id: number; name: string } | undefined = await trx('listings').where('id', edit.listing).first('id', 'name');
    if (!place) throw ValidationError.field('listing', 'No place has this number.');
    if (picks.some((p) => p.listing_id === edit.listing)) throw ValidationError.field('listing', 'That place is already on this list.');
    await renumber(trx, listId, picks);
    await trx('best_of_list_items').insert({ list_id: listId, listing_id: edit.listing, position: picks.length + 1, blurb: edit.blurb });
    await refreshBestOfFlag(trx, edit.listing);
    return { kind: 'added', listing: { id: Number(place.id), name: place.name }, to: picks.length + 1 };
  }
  const i = indexOnList(picks, edit.listing);
  const pick = picks[i];
  const listing = { id: pick.listing_id, name: pick.name };
  if (edit.kind === 'remove') {
    await trx('best_of_list_items').where({ list_id: listId, listing_id: pick.listing_id }).delete();
    await renumber(trx, listId, picks.filter((_, j) => j !== i));
    await refreshBestOfFlag(trx, pick.listing_id);
    return { kind: 'removed', listing, from: i + 1 };
  }
  if (edit.kind === 'move') {
    const j = edit.direction === 'up' ? i - 1 : i + 1;
    if (j < 0) throw ValidationError.field('direction', 'It is already first on the list.');
    if (j >= picks.length) throw ValidationError.field('direction', 'It is already last on the list.');
    const order = [...picks];
    [order[i], order[j]] = [order[j], order[i]];
    await renumber(trx, listId, order);
    return { kind: edit.direction === 'up' ? 'moved_up' : 'moved_down', listing, from: i + 1, to: j + 1 };
  }
  if (edit.visitedOn > today) throw ValidationError.field('visited_on', 'That day has not come yet: give the day of the visit.');
  await trx('best_of_list_items').where({ list_id: listId, listing_id: pick.listing_id }).update({ last_visited_on: edit.visitedOn });
  return { kind: 'visited', listing, from: i + 1, to: i + 1 };
}

/**
 * Applies one edit to the list `listId`: the list, its change log and the staff audit log in one
 * transaction. A list that is not there is a 404; a refused edit (a place not on the list, a
 * move past either end) a ValidationError naming the field.
 */
export async function applyBestOfEdit(
  db: Knex,
  ctx: { actor: StaffActor; now: Date; timeZone: string },
  listId: number,
  edit: BestOfEdit,
): Promise<BestOfEditResult> {
  return db.transaction(async (trx) => {
    // Locked, so two editors' moves on one list run one after the other.
    const list: { id: number; slug: string; title: string } | undefined = await trx('best_of_lists').where('id', listId).forUpdate().first('id', 'slug', 'title');
    if (!list) throw new NotFoundError();
    const done = await change(trx, listId, edit, cityDay(ctx.now, ctx.timeZone));
    const [row] = await trx('best_of_list_changes')
      .insert({
        list_id: listId,
        listing_id: done.listing?.id ?? null,
        listing_name: done.listing?.name ?? '',
        kind: done.kind,
        from_position: done.from ?? null,
        to_position: done.to ?? null,
        reason: edit.reason,
        staff_id: ctx.actor.id,
        created_at: ctx.now,
      })
      .returning('id');
    const changeId = Number(typeof row === 'object' ? row.id : row);
    await recordStaffAction(trx, ctx.actor, {
      action: `best_of.${done.kind}`,
      subjectType: 'best_of_list',
      subjectId: listId,
      note: edit.reason,
      detail: {
        list: list.slug,
        change_id: changeId,
        ...(done.listing ? { listing_id: done.listing.id, listing_name: done.listing.name } : {}),
        ...(done.from !== undefined ? { from_position: done.from } : {}),
        ...(done.to !== undefined ? { to_position: done.to } : {}),
        ...(edit.kind === 'visited' ? { visited_on: edit.visitedOn } : {}),
      },
    });
    return { changeId, kind: done.kind, list: { id: Number(list.id), slug: list.slug, title: list.title } };
  });
}
