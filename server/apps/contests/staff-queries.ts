import type { Db } from '../../db';

// What the staff contest pages read: every contest (published or scheduled) with its entry
// counts, and one contest's entries with the members who sent them.

export interface StaffContestRow {
  id: number;
  title: string;
  name: string;
  start_date: Date;
  end_date: Date;
  date_published: Date;
  skill_question: string | null;
  skill_answer: number | null;
  drawn_at: Date | null;
  winner_entry_id: number | null;
  entries: number;
  valid_entries: number;
}

const VALID = 'c.skill_answer IS NULL OR e.skill_answer = c.skill_answer';

function staffContestsQuery(db: Db) {
  return db('contests as c')
    .leftJoin('contest_entries as e', 'e.contest_id', 'c.id')
    .groupBy('c.id')
    .select('c.id', 'c.title', 'c.name', 'c.start_date', 'c.end_date', 'c.date_published', 'c.skill_question', 'c.skill_answer', 'c.drawn_at', 'c.winner_entry_id')
    .select(db.raw('count(e.id)::int as entries'))
    .select(db.raw(`(count(e.id) filter (where ${VALID}))::int as valid_entries`));
}

const asNumbers = (r: StaffContestRow): StaffContestRow => ({ ...r, entries: Number(r.entries), valid_entries: Number(r.valid_entries) });

/** Contests closing last first, with their entry counts. */
export async function staffContests(db: Db, limit: number, offset: number): Promise<{ count: number; rows: StaffContestRow[] }> {
  const [{ count }] = await db('contests').count<{ count: number }[]>({ count: '*' });
  const rows: StaffContestRow[] = await staffContestsQuery(db).orderBy('c.end_date', 'desc').orderBy('c.id', 'desc').limit(limit).offset(offset);
  return { count: Number(count), rows: rows.map(asNumbers) };
}

export async function staffContest(db: Db, id: number): Promise<StaffContestRow | undefined> {
  const row: StaffContestRow | undefined = await staffContestsQuery(db).where('c.id', id).first();
  return row && asNumbers(row);
}

export interface StaffEntryRow {
  id: number;
  created_at: Date;
  skill_answer: number | null;
  email: string;
  full_name: string;
  valid: boolean;
}

/** One contest's entries, oldest first. */
export async function contestEntries(db: Db, contestId: number, limit: number, offset: number): Promise<StaffEntryRow[]> {
  return db('contest_entries as e')
    .join('contests as c', 'c.id', 'e.contest_id')
    .join('profiles as p', 'p.id', 'e.profile_id')
    .where('e.contest_id', contestId)
    .orderBy('e.id')
    .limit(limit)
    .offset(offset)
    .select('e.id', 'e.created_at', 'e.skill_answer', 'p.email', 'p.full_name', db.raw(`(${VALID}) as valid`));
}

/** The winner drawn, with how to reach them; undefined when none is drawn or their entry is gone. */
export async function contestWinner(db: Db, contest: Pick<StaffContestRow, 'winner_entry_id'>): Promise<{ id: number; email: string; full_name: string; created_at: Date } | undefined> {
  if (contest.winner_entry_id === null) return undefined;
  return db('contest_entries as e').join('profiles as p', 'p.id', 'e.profile_id').where('e.id', contest.winner_entry_id).first('e.id', 'p.email', 'p.full_name', 'e.created_at');
}
