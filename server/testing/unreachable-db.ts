import { openDatabase, type DbHandle } from '../db';
import { freePort } from './free-port';

/**
 * A PostgreSQL database nobody answers for (a port that was just free, so connecting is
 * refused at once): the database of a process whose server has gone away. Works whichever
 * database the suite runs on.
 */
const quiet = { warn() {}, error() {}, debug() {} };

export async function openUnreachableDatabase(): Promise<DbHandle> {
  const port = await freePort();
  return openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/gone`, poolMax: 2, logger: quiet });
}
