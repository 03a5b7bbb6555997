import type { Request } from 'express';
import type { Knex } from 'knex';
import { NotAuthenticatedError } from '../../http/errors';

// The staff audit log (table staff_audit_log): one row per staff action, written in the same
// transaction as the action itself, so an action that rolls back leaves no entry and an entry
// never claims an action that did not happen.

export interface StaffActor {
  id: number;
  email: string;
}

/** Who is acting on a staff page (behind requireStaffPage): the signed-in member, as the log records them. */
export function staffActorOf(req: Request): StaffActor {
  if (!req.user) throw new NotAuthenticatedError();
  return { id: req.user.id, email: req.user.email };
}

export interface StaffAction {
  /** A verb: 'event.approve', 'event.reject', 'photo.remove', 'contest.draw', … */
  action: string;
  /** The kind of object acted on: 'event', 'photo', 'contact_message', 'contest', … */
  subjectType: string;
  subjectId: number | null;
  /** What the staff member wrote (a rejection note, say). */
  note?: string | null;
  /** Anything else worth keeping, as JSON (the winner drawn, the member emailed). */
  detail?: Record<string, unknown> | null;
}

export interface StaffAuditEntry {
  id: number;
  staff_id: number | null;
  staff_email: string;
  action: string;
  subject_type: string;
  subject_id: number | null;
  note: string | null;
  detail: Record<string, unknown> | null;
  created_at: Date;
}

/** Writes one entry; pass the transaction the action runs in. */
export async function recordStaffAction(db: Knex | Knex.Transaction, actor: StaffActor, entry: StaffAction): Promise<void> {
  await db('staff_audit_log').insert({
    staff_id: actor.id,
    staff_email: actor.email,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: entry.subjectId,
    note: entry.note ?? null,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
  });
}

/** The newest entries first, optionally for one object. */
export async function recentStaffActions(
  db: Knex,
  opts: { limit?: number; subjectType?: string; subjectId?: number } = {},
): Promise<StaffAuditEntry[]> {
  const q = db('staff_audit_log').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(opts.limit ?? 50);
  if (opts.subjectType) q.where('subject_type', opts.subjectType);
  if (opts.subjectId !== undefined) q.where('subject_id', opts.subjectId);
  const rows: Array<Omit<StaffAuditEntry, 'id' | 'subject_id'> & { id: string | number; subject_id: string | number | null }> = await q;
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    subject_id: r.subject_id === null ? null : Number(r.subject_id),
    detail: typeof r.detail === 'string' ? (JSON.parse(r.detail) as Record<string, unknown>) : r.detail,
  }));
}
