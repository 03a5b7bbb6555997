import type { Db } from '../../db';

/** The health check's one trivial statement (api.ts): answers when the database does. */
export function pingDatabase(db: Db) {
  return db.raw('select 1');
}
