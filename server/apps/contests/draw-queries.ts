import crypto from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { contestWinnerEmail, type WonContest } from './winner-email';

// Drawing a contest's winner: uniformly at random among the valid entries (those with the
// right answer to the skill-testing question, as it stands when drawing), after the contest
// has closed, in one transaction with its audit-log entry. A second draw is refused unless
// staff ask for a redraw explicitly (a winner who cannot be reached, say). The winner is
// emailed after the commit (drawAndEmailWinner): a slow mail server must not hold the contest
// row locked, and a failed email must not undo a draw already made.

/** Picks an index in [0, max); crypto.randomInt unless a test passes its own. */
export type RandomIndex = (max: number) => number;

export type DrawResult =
  | { outcome: 'drawn'; entryId: number; profileId: number; validEntries: number; winner: { email: string; fullName: string | null }; contest: WonContest }
  | { outcome: 'not-found' | 'still-open' | 'already-drawn' | 'no-valid-entries' };

/** Valid entries of a contest, oldest first (the order the random index counts in). */
export function validEntriesQuery(db: Db, contestId: number) {
  return db('contest_entries as e')
    .join('contests as c', 'c.id', 'e.contest_id')
    .where('e.contest_id', contestId)
    .where((q) => q.whereNull('c.skill_answer').orWhereRaw('e.skill_answer = c.skill_answer'));
}

export async function drawWinner(
  db: Db,
  contestId: number,
  actor: StaffActor,
  opts: { redraw: boolean; now: Date; randomIndex?: RandomIndex },
): Promise<DrawResult> {
  const randomIndex = opts.randomIndex ?? ((max: number) => crypto.randomInt(max));
  return db.transaction(async (trx) => {
    // The row lock makes two staff members' simultaneous draws take turns: the second sees the first's winner.
    const contest:
      | { id: number; title: string; name: string; prize: string; skill_question: string | null; end_date: Date; drawn_at: Date | null; winner_entry_id: number | null }
      | undefined = await trx('contests')
      .where({ id: contestId })
      .forUpdate()
      .first('id', 'title', 'name', 'prize', 'skill_question', 'end_date', 'drawn_at', 'winner_entry_id');
    if (!contest) return { outcome: 'not-found' as const };
    if (new Date(contest.end_date).getTime() > opts.now.getTime()) return { outcome: 'still-open' as const };
    if (contest.drawn_at && !opts.redraw) return { outcome: 'already-drawn' as const };
    const entries: Array<{ id: number; profile_id: number; email: string; full_name: string | null }> = await validEntriesQuery(trx, contestId)
      .join('profiles as p', 'p.id', 'e.profile_id')
      .orderBy('e.id')
      .select('e.id', 'e.profile_id', 'p.email', 'p.full_name');
    if (!entries.length) return { outcome: 'no-valid-entries' as const };
    const winner = entries[randomIndex(entries.length)];
    await trx('contests').where({ id: contestId }).update({ winner_entry_id: winner.id, drawn_at: opts.now });
    await recordStaffAction(trx, actor, {
      action: contest.drawn_at ? 'contest.redraw' : 'contest.draw',
      subjectType: 'contest',
      subjectId: contestId,
      detail: { entry_id: winner.id, profile_id: winner.profile_id, valid_entries: entries.length, previous_entry_id: contest.winner_entry_id, emailed: winner.email },
    });
    return {
      outcome: 'drawn' as const,
      entryId: winner.id,
      profileId: winner.profile_id,
      validEntries: entries.length,
      winner: { email: winner.email, fullName: winner.full_name },
      contest: { title: contest.title, name: contest.name, prize: contest.prize, askedSkillQuestion: contest.skill_question !== null },
    };
  });
}

/** Whether the winner's email went out ('failed' is logged; the draw stands either way). */
export type WinnerMail = 'sent' | 'failed';

export type DrawWithMailResult = Exclude<DrawResult, { outcome: 'drawn' }> | (Extract<DrawResult, { outcome: 'drawn' }> & { mail: WinnerMail });

/** Draws (drawWinner, one transaction), then emails the winner once it has committed. */
export async function drawAndEmailWinner(
  ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'logger'>,
  contestId: number,
  actor: StaffActor,
  opts: { redraw: boolean; now: Date; randomIndex?: RandomIndex },
): Promise<DrawWithMailResult> {
  const result = await drawWinner(ctx.db, contestId, actor, opts);
  if (result.outcome !== 'drawn') return result;
  const { name: siteName, url: siteUrl } = ctx.config.site;
  try {
    await ctx.mailer.send(contestWinnerEmail({ siteName, siteUrl, staffEmail: ctx.config.mail.staffEmail, to: result.winner.email, name: result.winner.fullName }, result.contest));
    return { ...result, mail: 'sent' };
  } catch (err) {
    ctx.logger.error({ err, contestId, entryId: result.entryId }, 'contest winner drawn but could not be emailed');
    return { ...result, mail: 'failed' };
  }
}
