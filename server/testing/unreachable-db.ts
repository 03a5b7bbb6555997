import net from 'node:net';
import { openDatabase, type DbHandle } from '../db';

/**
 * A PostgreSQL database nobody answers for (a port that was just free, so connecting is
 * refused at once): the database of a process whose server has gone away. Works whichever
 * database the suite runs on.
 */
const quiet = { warn() {}, error() {}, debug() {} };

export async function openUnreachableDatabase(): Promise<DbHandle> {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  return openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/gone`, poolMax: 2, logger: quiet });
}
