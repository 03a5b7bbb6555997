import type { Db } from '../../db';
import { contestsQuery, type ContestRow } from './serialize';
import { whereContestIsPublic } from './queries';

export interface ContestPageRow extends ContestRow {
  rules: string;
  /** The skill-testing question (prize contests); its answer is only ever compared, never printed. */
  skill_question: string | null;
  skill_answer: number | null;
}

/** A published contest by its name (the slug in its URL), with its prize, rules and question. */
export async function publishedContest(db: Db, name: string, now: Date): Promise<ContestPageRow | undefined> {
  return whereContestIsPublic(contestsQuery(db), now).where('c.name', name).first('c.rules', 'c.skill_question', 'c.skill_answer');
}
