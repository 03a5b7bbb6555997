import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { HttpError, NotFoundError } from '../../http/errors';
import { moderateEvent, type ModerationDecision } from '../event-submissions/moderation-queries';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { moderationEmail, type ModeratedEvent } from './moderation-email';

// Approving or rejecting members' events from the staff area (and npm run events:moderate),
// one or several at once. The
// status changes and their audit entries are one transaction (all or nothing); the members'
// emails go after the commit (a slow mail server must not hold the rows locked, and a failed
// email must not undo a decision already taken).

export type MailOutcome = 'sent' | 'failed' | 'none';

export interface ModerationResult {
  ids: number[];
  /** The title of the first event decided (what the notice names when there is one). */
  title: string;
  status: ModerationDecision;
  /** 'failed' if any email failed, 'sent' if any was sent, else 'none' (nobody to email). */
  mail: MailOutcome;
}

/** CASE: another staff member (or a second click) decided first; deciding twice would email twice. */
export class AlreadyModeratedError extends HttpError {
  constructor(id: number, status: string) {
    super(409, `Event #${id} was already moderated (it is ${status}); nothing was changed.`);
  }
}

/** How many events wait for a decision (the count beside the queue in the staff menu). */
export async function pendingEventCount(db: Db): Promise<number> {
  const row: { n: number } | undefined = await db('events').where({ status: 'pending' }).first(db.raw('count(*)::int as n'));
  return row?.n ?? 0;
}

/** An event's title (what the queue's notice names), or undefined when there is no such event. */
export async function eventTitle(db: Db, id: number): Promise<string | undefined> {
  const row: { title: string } | undefined = await db('events').where({ id }).first('title');
  return row?.title;
}

/** What a decision needs: the staff area passes its context, npm run events:moderate its own. */
export type ModerationContext = Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'logger'>;

export async function moderatePendingEvents(ctx: ModerationContext, actor: StaffActor, ids: number[], decision: ModerationDecision, note: string): Promise<ModerationResult> {
  const unique = [...new Set(ids)];
  const decided = await ctx.db.transaction(async (trx) => {
    const rows: Array<{ id: number; title: string; slug: string; status: string; email: string | null; full_name: string | null }> = await trx('events as e')
      .leftJoin('profiles as p', 'p.id', 'e.submitted_by')
      .whereIn('e.id', unique)
      .orderBy('e.id')
      .forUpdate('e')
      .select('e.id', 'e.title', 'e.slug', 'e.status', 'p.email as email', 'p.full_name as full_name');
    const missing = unique.find((id) => !rows.some((r) => Number(r.id) === id));
    if (missing !== undefined) throw new NotFoundError(`No event with id ${missing}.`);
    const done = rows.find((r) => r.status !== 'pending');
    if (done) throw new AlreadyModeratedError(Number(done.id), done.status);
    for (const row of rows) {
      await moderateEvent(trx, Number(row.id), decision, note, ctx.now());
      await recordStaffAction(trx, actor, {
        action: decision === 'approved' ? 'event.approve' : 'event.reject',
        subjectType: 'event',
        subjectId: Number(row.id),
        note: note || null,
        detail: { title: row.title, emailed: row.email ?? null, ...(rows.length > 1 ? { batch: rows.length } : {}) },
      });
    }
    // In the order staff chose them, so the notice names the one they picked first.
    return unique.map((id) => rows.find((r) => Number(r.id) === id)!);
  });

  const outcomes: MailOutcome[] = [];
  for (const row of decided) {
    if (!row.email) continue;
    const event: ModeratedEvent = { id: Number(row.id), title: row.title, slug: row.slug };
    try {
      const { name: siteName, url: siteUrl } = ctx.config.site;
      await ctx.mailer.send(moderationEmail({ siteName, siteUrl, to: row.email, name: row.full_name }, event, decision, note));
      outcomes.push('sent');
    } catch (err) {
      ctx.logger.error({ err, eventId: row.id, decision }, 'event moderated but the member could not be emailed');
      outcomes.push('failed');
    }
  }
  const mail: MailOutcome = outcomes.includes('failed') ? 'failed' : outcomes.length ? 'sent' : 'none';
  return { ids: decided.map((r) => Number(r.id)), title: decided[0].title, status: decision, mail };
}
