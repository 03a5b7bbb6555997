import { openTestDatabase, testDatabaseUrl } from '../../server/testing/test-db';
import type { DbHandle } from '../../server/db';
import { startBackendStorm } from '../../server/testing/backend-storm';
import { httpRequest, signUp, startServerProcess, type ServerProcess } from './server-process';

// PostgreSQL only (runs with TEST_DATABASE_URL): the real server process, a signed-in member's
// requests, and every backend of its database terminated over and over. Before, the session
// store's rethrown error was an unhandled rejection and the process exited at the first one.

jest.setTimeout(180_000);

describe('PostgreSQL failover: the server process under terminated backends', () => {
  let handle: DbHandle;
  let server: ServerProcess;
  beforeAll(async () => {
    handle = await openTestDatabase(); // a fresh migrated database of its own
    const database = (await handle.db.raw('select current_database() as name')).rows[0].name as string;
    const url = new URL(testDatabaseUrl()!);
    url.pathname = `/${database}`;
    server = await startServerProcess({ databaseUrl: url.toString() });
  });
  afterAll(async () => {
    await server?.dispose();
    await handle?.close();
  });

  test('keeps running, answers 2xx or 503 meanwhile, and serves the member again afterwards', async () => {
    const database = (await handle.db.raw('select current_database() as name')).rows[0].name as string;
    const member = await signUp(server.port);
    const storm = startBackendStorm(testDatabaseUrl()!, database, 6);
    const statuses: (number | string)[] = [];
    let done = false;
    const paths = ['/api/v2/profiles/me/', '/accounts/dashboard/', '/api/v2/favourites/', '/'];
    const worker = async (i: number) => {
      while (!done) {
        const answer = await httpRequest(server.port, paths[i % paths.length], { headers: { Cookie: member.cookie } }).then(
          (r) => r.status,
          (err: Error) => err.message,
        );
        statuses.push(answer);
        storm.answered();
        if ((storm.terminated >= 30 && statuses.length >= 100 && statuses.includes(503)) || statuses.length >= 3000) done = true;
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    await storm.stop();

    expect(server.child.exitCode).toBeNull(); // alive
    expect(statuses.filter((s) => !(typeof s === 'number' && ((s >= 200 && s < 300) || s === 503)))).toEqual([]);
    expect(storm.terminated).toBeGreaterThanOrEqual(30);

    let me = await httpRequest(server.port, '/api/v2/profiles/me/', { headers: { Cookie: member.cookie } });
    for (let attempt = 0; attempt < 200 && me.status !== 200; attempt++) {
      expect(me.status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 50));
      me = await httpRequest(server.port, '/api/v2/profiles/me/', { headers: { Cookie: member.cookie } });
    }
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).email).toBe(member.email);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toContain('unhandled promise rejection');
  });
});
