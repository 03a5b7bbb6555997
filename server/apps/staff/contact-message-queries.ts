import type { Db } from '../../db';
import { NotFoundError } from '../../http/errors';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';

// Messages sent with the contact form (the contact app stores them), newest first, for staff
// to read and mark handled.

export const MESSAGES_PER_PAGE = 50;

export interface ContactMessageRow {
  id: number;
  question_category: string;
  name: string;
  email: string;
  business_name: string;
  phone_number: string;
  comment: string;
  date_created: Date;
  handled_at: Date | null;
  handled_by_email: string | null;
}

export async function recentContactMessages(db: Db, page: { limit: number; offset: number }): Promise<{ count: number; open: number; messages: ContactMessageRow[] }> {
  const [counts, rows] = await Promise.all([
    db('contact_messages').first(db.raw('count(*)::int as n'), db.raw('count(*) filter (where handled_at is null)::int as open')) as Promise<{ n: number; open: number }>,
    db('contact_messages as m')
      .leftJoin('profiles as h', 'h.id', 'm.handled_by')
      .orderBy([{ column: 'm.date_created', order: 'desc' }, { column: 'm.id', order: 'desc' }])
      .limit(page.limit)
      .offset(page.offset)
      .select('m.id', 'm.question_category', 'm.name', 'm.email', 'm.business_name', 'm.phone_number', 'm.comment', 'm.date_created', 'm.handled_at', 'h.email as handled_by_email'),
  ]);
  return { count: Number(counts.n), open: Number(counts.open), messages: rows.map((r: ContactMessageRow) => ({ ...r, id: Number(r.id) })) };
}

/** How many messages nobody has handled yet (the count beside them in the staff menu). */
export async function unhandledContactMessageCount(db: Db): Promise<number> {
  const row: { n: number } | undefined = await db('contact_messages').whereNull('handled_at').first(db.raw('count(*)::int as n'));
  return row?.n ?? 0;
}

/** Marks a message handled; marking one already handled again changes nothing and logs nothing. */
export async function markContactMessageHandled(db: Db, actor: StaffActor, id: number, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('contact_messages').where({ id }).forUpdate().first('id', 'handled_at', 'email');
    if (!row) throw new NotFoundError(`No contact message with id ${id}.`);
    if (row.handled_at) return;
    await trx('contact_messages').where({ id }).update({ handled_at: now, handled_by: actor.id });
    await recordStaffAction(trx, actor, { action: 'contact_message.handled', subjectType: 'contact_message', subjectId: id, detail: { from: row.email } });
  });
}
