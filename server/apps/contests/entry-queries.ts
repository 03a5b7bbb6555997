import { z } from 'zod';
import type { Db } from '../../db';
import { validate } from '../../http/validate';
import { ValidationError } from '../../http/errors';

// Entering a contest: one entry per member per contest, only between its start and end dates,
// and, when the contest asks a skill-testing question, only with the right answer (a wrong
// one saves nothing: the member may try again).

export interface EnterableContest {
  id: number;
  start_date: Date | string;
  end_date: Date | string;
  skill_question: string | null;
  skill_answer: number | null;
}

export type EntryWindow = 'not-started' | 'open' | 'closed';

/** Where `now` falls: entries are taken from start_date up to (not including) end_date. */
export function entryWindow(contest: Pick<EnterableContest, 'start_date' | 'end_date'>, now: Date): EntryWindow {
  if (now.getTime() < new Date(contest.start_date).getTime()) return 'not-started';
  if (now.getTime() >= new Date(contest.end_date).getTime()) return 'closed';
  return 'open';
}

export const SKILL_ANSWER_MESSAGES = {
  required: 'Answer the skill-testing question to enter.',
  notANumber: 'Enter a whole number, such as 12.',
  wrong: 'That is not the right answer to the skill-testing question. Check your arithmetic and try again.',
} as const;

// Whole numbers only (the questions are arithmetic); at most 9 digits so it fits an integer.
const answerSchema = z.object({
  skill_answer: z
    .string({ message: SKILL_ANSWER_MESSAGES.required })
    .trim()
    .min(1, SKILL_ANSWER_MESSAGES.required)
    .regex(/^[-−]?\d{1,9}$/, SKILL_ANSWER_MESSAGES.notANumber)
    .transform((s) => Number(s.replace('−', '-'))),
});

/** The member's answer, checked against the contest's; throws a ValidationError naming skill_answer. */
export function checkedSkillAnswer(contest: EnterableContest, body: Record<string, unknown>): number | null {
  if (contest.skill_answer === null) return null;
  const { skill_answer } = validate(answerSchema, { skill_answer: typeof body.skill_answer === 'number' ? String(body.skill_answer) : (body.skill_answer ?? '') });
  if (skill_answer !== contest.skill_answer) throw new ValidationError({ skill_answer: [SKILL_ANSWER_MESSAGES.wrong] });
  return skill_answer;
}

export type EnterResult = { outcome: 'entered'; enteredAt: Date } | { outcome: 'already-entered'; enteredAt: Date } | { outcome: EntryWindow & ('not-started' | 'closed') };

/** The member's entry in a contest, if any. */
export async function memberEntry(db: Db, contestId: number, profileId: number): Promise<{ id: number; created_at: Date } | undefined> {
  return db('contest_entries').where({ contest_id: contestId, profile_id: profileId }).first('id', 'created_at');
}

/**
 * Enters the member (the answer already checked). The unique (contest, member) index decides
 * between two posts racing each other: the second finds the first's entry.
 */
export async function enterContest(db: Db, contest: EnterableContest, profileId: number, skillAnswer: number | null, now: Date): Promise<EnterResult> {
  const window = entryWindow(contest, now);
  if (window !== 'open') return { outcome: window };
  const inserted: Array<{ created_at: Date }> = await db('contest_entries')
    .insert({ contest_id: contest.id, profile_id: profileId, skill_answer: skillAnswer, created_at: now })
    .onConflict(['contest_id', 'profile_id'])
    .ignore()
    .returning('created_at');
  if (inserted.length) return { outcome: 'entered', enteredAt: new Date(inserted[0].created_at) };
  const existing = await memberEntry(db, contest.id, profileId);
  return { outcome: 'already-entered', enteredAt: new Date(existing!.created_at) };
}
