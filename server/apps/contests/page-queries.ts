import type { Db } from '../../db';
import { contestsQuery, type ContestRow } from './serialize';

/** A published contest by its name (the slug in its URL), with its prize and rules. */
export async function publishedContest(db: Db, name: string, now: Date): Promise<(ContestRow & { rules: string }) | undefined> {
  return contestsQuery(db).where('c.name', name).where('c.date_published', '<=', now).first('c.rules');
}
