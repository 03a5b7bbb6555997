import type { Knex } from 'knex';
import type { Db } from '../../db';
import { NotFoundError, ValidationError } from '../../http/errors';
import { touchLastUpdate } from '../profiles/member-queries';
import { messages } from './fields';
import type { AnySaveKind, Change, CreateRequest, OrderTerms, SaveRow } from './save-kind';

// The database side of saving, for any kind. Every change runs in one transaction with the
// kind's counters and the member's `last_updates` stamp, so a failed request changes nothing.
// One row per member and object is the table's unique constraint; creating relies on
// INSERT … ON CONFLICT DO NOTHING, so two racing requests still leave a single row.

/** Postgres' foreign_key_violation: the object was deleted between the check and the insert. */
const isMissingObject = (err: unknown) => (err as { code?: string })?.code === '23503';

const prefixed = (alias: string, where: Record<string, unknown>) => Object.fromEntries(Object.entries(where).map(([k, v]) => [`${alias}.${k}`, v]));

function scopedQuery(db: Db, kind: AnySaveKind, memberId: number, now: Date, where: Record<string, unknown> = {}) {
  const q = kind
    .objectQuery(db, memberId, now)
    .join(`${kind.table} as s`, `s.${kind.objectColumn}`, `${kind.objectAlias}.id`)
    .where('s.profile_id', memberId);
  q.where(prefixed('s', where));
  return q;
}

/**
 * How many saves the list has. Counted on the save table alone (an index-only scan), checking
 * the object only where objectQuery hides some (a draft article): the foreign keys already
 * guarantee that the object exists, so a join for every saved row would be wasted work.
 */
function countQuery(db: Db, kind: AnySaveKind, memberId: number, now: Date, where: Record<string, unknown> = {}) {
  const q = db(`${kind.table} as s`).where('s.profile_id', memberId).where(prefixed('s', where));
  const visible = kind.visible;
  if (visible) {
    q.whereExists((sub) => {
      sub.select(db.raw('1')).from(`${kind.objectTable} as ${kind.objectAlias}`).whereRaw('??.id = ??', [kind.objectAlias, `s.${kind.objectColumn}`]);
      visible(sub, now);
    });
  }
  return q.count({ count: '*' }).first();
}

function saveColumns(kind: AnySaveKind): string[] {
  return ['id', 'date_created', ...kind.saveColumns].map((c) => `s.${c} as save_${c}`);
}

export interface ListRequest {
  limit: number;
  offset: number;
  ordering: OrderTerms;
  where?: Record<string, unknown>;
}

/** One page of the member's saves with their objects (two queries, whatever the page size). */
/** `Obj`: the row the kind's objectQuery selects (knex leaves query results untyped). */
export async function listSaves<Obj>(db: Db, kind: AnySaveKind, memberId: number, req: ListRequest, now: Date): Promise<{ count: number; rows: SaveRow<Obj>[] }> {
  const page = scopedQuery(db, kind, memberId, now, req.where).select(saveColumns(kind));
  for (const term of req.ordering) page.orderBy(term.column, term.order, term.nulls);
  page.orderBy('s.id', 'desc').limit(req.limit).offset(req.offset);
  const [counted, rows] = await Promise.all([
    countQuery(db, kind, memberId, now, req.where),
    page,
  ]);
  return { count: Number((counted as { count: number | string } | undefined)?.count ?? 0), rows: rows as SaveRow<Obj>[] };
}

/** One of the member's saves; another member's, or none, is a 404. */
export async function getSave<Obj>(db: Db, kind: AnySaveKind, memberId: number, saveId: number, now: Date): Promise<SaveRow<Obj>> {
  const row = await scopedQuery(db, kind, memberId, now).where('s.id', saveId).first(saveColumns(kind));
  if (!row) throw new NotFoundError();
  return row as SaveRow<Obj>;
}

async function changed(trx: Knex.Transaction, kind: AnySaveKind, memberId: number, objectId: number, change: Change, now: Date) {
  await kind.onChange?.(trx, objectId, change);
  await touchLastUpdate(trx, memberId, kind.lastUpdateKey, now);
}

async function insertOrFind(trx: Knex.Transaction, kind: AnySaveKind, memberId: number, req: CreateRequest, now: Date) {
  const key = { profile_id: memberId, [kind.objectColumn]: req.objectId };
  const inserted = await trx(kind.table)
    .insert({ ...key, date_created: now, ...req.fields })
    .onConflict(['profile_id', kind.objectColumn])
    .ignore()
    .returning('id');
  if (inserted.length) return { id: Number(inserted[0].id), created: true };
  // The conflicting row was committed before our insert gave up, so this statement sees it.
  const existing = await trx(kind.table).where(key).first('id');
  return existing ? { id: Number(existing.id), created: false } : null;
}

/**
 * Saves the object for the member: {created: true} for a new row, {created: false} with the
 * existing one (changed by `onExisting`, if given) when it was saved already.
 */
export async function createSave(db: Db, kind: AnySaveKind, memberId: number, req: CreateRequest, now: Date): Promise<{ id: number; created: boolean }> {
  const reason = await kind.unsaveableReason(db, req.objectId, now);
  if (reason) throw ValidationError.field(kind.objectField, reason);
  try {
    return await db.transaction(async (trx) => {
      // CASE: the existing row was deleted between our insert and our select: try once more.
      const saved = (await insertOrFind(trx, kind, memberId, req, now)) ?? (await insertOrFind(trx, kind, memberId, req, now));
      if (!saved) throw new NotFoundError();
      if (saved.created) await changed(trx, kind, memberId, req.objectId, 'created', now);
      else if (req.onExisting) {
        await trx(kind.table).where({ id: saved.id }).update(req.onExisting);
        await changed(trx, kind, memberId, req.objectId, 'updated', now);
      }
      return saved;
    });
  } catch (err) {
    if (isMissingObject(err)) throw ValidationError.field(kind.objectField, messages.doesNotExist(req.objectId));
    throw err;
  }
}

/** Changes columns of one of the member's saves; another member's is a 404. */
export async function updateSave(db: Db, kind: AnySaveKind, memberId: number, saveId: number, fields: Record<string, unknown>, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = await trx(kind.table).where({ id: saveId, profile_id: memberId }).update(fields).returning(kind.objectColumn);
    if (!row) throw new NotFoundError();
    await changed(trx, kind, memberId, Number(row[kind.objectColumn]), 'updated', now);
  });
}

/** Deletes one of the member's saves; another member's is a 404. */
export async function deleteSave(db: Db, kind: AnySaveKind, memberId: number, saveId: number, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = await trx(kind.table).where({ id: saveId, profile_id: memberId }).delete().returning(kind.objectColumn);
    if (!row) throw new NotFoundError();
    await changed(trx, kind, memberId, Number(row[kind.objectColumn]), 'deleted', now);
  });
}

/**
 * Object id → save id for everything the member saved of this kind, which pages read to show
 * what is saved. With `extra` columns, the value is {id, ...extra} instead (ratings).
 */
export async function savedObjectMap(db: Db, kind: AnySaveKind, memberId: number, extra: readonly string[] = []): Promise<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = await db(kind.table)
    .where({ profile_id: memberId })
    .select(['id', kind.objectColumn, ...extra]);
  const map: Record<string, unknown> = {};
  for (const row of rows) {
    const key = String(row[kind.objectColumn]);
    if (!extra.length) map[key] = row.id;
    else map[key] = Object.fromEntries([['id', row.id], ...extra.map((c) => [c, row[c]])]);
  }
  return map;
}
