import type { Knex } from 'knex';
import type { StaffActor } from '../staff-audit/audit-log-queries';

// A place's revisions (table place_revisions): every change staff make to a place, or apply
// from a reader's suggestion, is one row written in the same transaction as the change, so a
// change that rolls back leaves no revision and a revision never claims a change that did not
// happen. `changes` holds each field's value before and after, which is what a revert writes
// back; `summary` is the line staff read ("hours Tue 9–5 → 10–6").

export const PLACE_REVISION_KINDS = ['create', 'edit', 'close', 'reopen', 'revert', 'suggestion'] as const;
export type PlaceRevisionKind = (typeof PLACE_REVISION_KINDS)[number];

/** One field's value before and after; null where there was none (a new place's "from"). */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

export interface PlaceRevisionInput {
  listingId: number;
  kind: PlaceRevisionKind;
  /** Field name → its change; the field names are the desk's (name, address, hours, …). */
  changes: Record<string, FieldChange>;
  summary: string;
  /** For a revert: the revision it undid. */
  revertsId?: number | null;
}

export interface PlaceRevisionRow {
  id: number;
  listing_id: number;
  staff_id: number | null;
  staff_email: string;
  kind: PlaceRevisionKind;
  changes: Record<string, FieldChange>;
  summary: string;
  reverts_id: number | null;
  created_at: Date;
}

/** Writes one revision; pass the transaction the change runs in. Answers its id. */
export async function recordPlaceRevision(trx: Knex | Knex.Transaction, actor: StaffActor, r: PlaceRevisionInput): Promise<number> {
  const [row] = await trx('place_revisions')
    .insert({
      listing_id: r.listingId,
      staff_id: actor.id,
      staff_email: actor.email,
      kind: r.kind,
      changes: JSON.stringify(r.changes),
      summary: r.summary,
      reverts_id: r.revertsId ?? null,
    })
    .returning('id');
  return Number((row as { id: number | string }).id);
}

const asRevision = (r: PlaceRevisionRow): PlaceRevisionRow => ({ ...r, id: Number(r.id), reverts_id: r.reverts_id === null ? null : Number(r.reverts_id) });

/** A place's revisions, newest first. */
export async function placeRevisions(db: Knex, listingId: number, opts: { limit: number; offset: number }): Promise<PlaceRevisionRow[]> {
  const rows: PlaceRevisionRow[] = await db('place_revisions')
    .where({ listing_id: listingId })
    .orderBy([{ column: 'id', order: 'desc' }])
    .limit(opts.limit)
    .offset(opts.offset)
    .select('*');
  return rows.map(asRevision);
}

/** One revision of a place, or undefined when the place has no such revision. */
export async function placeRevision(db: Knex | Knex.Transaction, listingId: number, id: number): Promise<PlaceRevisionRow | undefined> {
  const row: PlaceRevisionRow | undefined = await db('place_revisions').where({ listing_id: listingId, id }).first('*');
  return row && asRevision(row);
}

/**
 * Each field's value before the first revision after `afterId` that changed it: what a form made
 * at revision `afterId` showed for the fields someone has changed since (none: nobody has).
 */
export async function valuesSinceChanged(db: Knex, listingId: number, afterId: number): Promise<Record<string, unknown>> {
  const rows: Array<{ changes: Record<string, FieldChange> | string }> = await db('place_revisions')
    .where({ listing_id: listingId })
    .where('id', '>', afterId)
    .orderBy('id', 'asc')
    .select('changes');
  const before: Record<string, unknown> = {};
  for (const row of rows) {
    const changes = typeof row.changes === 'string' ? (JSON.parse(row.changes) as Record<string, FieldChange>) : row.changes;
    for (const [field, change] of Object.entries(changes)) if (!(field in before)) before[field] = change.from;
  }
  return before;
}
