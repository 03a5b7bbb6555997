import type { Knex } from 'knex';
import type { Db } from '../../db';
import { ValidationError } from '../../http/errors';
import { minuteFloor } from '../../db/count-cache';
import { recordSlugChange } from '../../http/pages/old-slugs';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import type { ContestForm } from './schemas';

// What staff's contest form reads and writes. A save is one transaction: the contest, its old
// address when the name changed, and its staff audit entry, or none of them.

/** A contest with every field the form edits, published or not. */
export interface EditableContest {
  id: number;
  title: string;
  name: string;
  description: string;
  prize: string;
  rules: string;
  odds: string;
  image_key: string | null;
  start_date: Date;
  end_date: Date;
  skill_question: string | null;
  skill_answer: number | null;
  entries: number;
}

export async function editableContest(db: Db, id: number): Promise<EditableContest | undefined> {
  const row = await db('contests as c')
    .where('c.id', id)
    .first('c.id', 'c.title', 'c.name', 'c.description', 'c.prize', 'c.rules', 'c.odds', 'c.image_key', 'c.start_date', 'c.end_date', 'c.skill_question', 'c.skill_answer', db.raw('(select count(*)::int from contest_entries e where e.contest_id = c.id) as entries'));
  return row ? { ...row, id: Number(row.id), entries: Number(row.entries) } : undefined;
}

export type ContestSave = Omit<ContestForm, 'id'> & { image_key?: string };

/**
 * Adds a contest (published now) or changes contest `id`, with the audit entry, in one
 * transaction. Refused on its field: a name another contest has; once members have entered,
 * a different question or answer (their answers were checked against the one they saw).
 * Answers the contest's id and its name before the change (null for a new one).
 */
export async function saveContest(db: Knex, ctx: { actor: StaffActor; now: Date }, id: number | null, contest: ContestSave): Promise<{ id: number; before: string | null }> {
  return db.transaction(async (trx) => {
    const taken = await trx('contests').where('name', contest.name).modify((q) => { if (id !== null) q.whereNot('id', id); }).first('id');
    if (taken) throw ValidationError.field('name', 'Another contest has this address: choose another.');
    const row = {
      title: contest.title, name: contest.name, description: contest.description, prize: contest.prize, rules: contest.rules, odds: contest.odds,
      start_date: contest.start_date, end_date: contest.end_date, skill_question: contest.skill_question, skill_answer: contest.skill_answer,
      ...(contest.image_key ? { image_key: contest.image_key } : {}),
    };
    let before: string | null = null;
    let contestId: number;
    const changed: string[] = [];
    if (id === null) {
      // Public from this minute's start: the lists read "published by now" to the minute.
      const [inserted] = await trx('contests').insert({ ...row, date_published: minuteFloor(ctx.now) }).returning('id');
      contestId = Number(typeof inserted === 'object' ? inserted.id : inserted);
    } else {
      const old: (Omit<EditableContest, 'entries'> & { skill_answer: number | null }) | undefined = await trx('contests').where('id', id).forUpdate().first();
      if (!old) throw ValidationError.field('id', 'Not a valid contest.');
      const entries = Number((await trx('contest_entries').where('contest_id', id).count<{ count: number }[]>({ count: '*' }))[0].count);
      if (entries > 0 && (old.skill_question !== contest.skill_question || (old.skill_answer === null ? null : Number(old.skill_answer)) !== contest.skill_answer)) {
        throw ValidationError.field('skill_answer', `${entries === 1 ? 'A member has' : `${entries} members have`} entered with the question as it is: it cannot change now.`);
      }
      for (const [field, value] of Object.entries(row)) {
        const was = (old as unknown as Record<string, unknown>)[field];
        const same = was instanceof Date && value instanceof Date ? was.getTime() === value.getTime() : String(was ?? '') === String(value ?? '');
        if (!same) changed.push(field);
      }
      before = old.name;
      await trx('contests').where('id', id).update(row);
      contestId = id;
    }
    // A changed name keeps its old addresses, as 301s to this contest's (contests' pages).
    await recordSlugChange(trx, 'contest', contestId, before, contest.name);
    await recordStaffAction(trx, ctx.actor, {
      action: id === null ? 'contest.create' : 'contest.update',
      subjectType: 'contest',
      subjectId: contestId,
      detail: { title: contest.title, name: contest.name, start_date: contest.start_date.toISOString(), end_date: contest.end_date.toISOString(), ...(id !== null ? { changed } : {}), ...(before && before !== contest.name ? { old_name: before } : {}) },
    });
    return { id: contestId, before };
  });
}
