import knexFactory, { type Knex } from 'knex';
import { createListingType } from '../../server/testing/fixtures';
import { waitFor } from '../../server/testing/wait-for';
import { scratchClusterUnavailable, startScratchCluster, type ScratchCluster } from '../../server/testing/postgres-cluster';
import { httpRequest, type ServerProcess } from './server-process';
import { signUpSecure, startProductionServerProcess, type SecureMember } from './production-server';

// PostgreSQL itself restarts (an upgrade, a failover, `pg_ctl restart -m fast`) while ten
// members save favourites and to-dos: the production server process answers 503 meanwhile
// (never a 500, never a dropped or hung request), /healthz is 200 again soon after the
// database is, no write it acknowledged is lost, and the members stay signed in. On a cluster
// of the test's own (initdb as the postgres user, on a free port), never the shared server.
// With the PostgreSQL part of the suite (`.postgres.test.ts`); it says so in a skipped test's
// name when it cannot make a cluster here (not root, no postgres user, no initdb).

jest.setTimeout(300_000);

const MEMBERS = 10;
const LISTINGS_PER_MEMBER = 200;
/** A request unanswered this long is a hang (the app's own limits answer 503 within ~10 s). */
const HANG_MS = 30_000;
/** Generous bounds for what takes a second or two: each fails the test when it runs out. */
const WAIT_MS = 60_000;
/** /healthz must be 200 again this soon after the database is back (today: 1–2 s at most). */
const HEALTHZ_BACK_MS = 15_000;

const unavailable = scratchClusterUnavailable();

function describeWithCluster(name: string, fn: () => void): void {
  if (!unavailable) return describe(name, fn);
  describe(name, () => {
    test.skip(`SKIPPED: cannot make a PostgreSQL cluster of its own: ${unavailable}`, () => {});
  });
  console.warn(`PostgreSQL restart test SKIPPED: ${unavailable}`);
}

type Phase = 'before' | 'outage' | 'after';
interface Write {
  member: number;
  table: 'favourites' | 'todos';
  listing: number;
  phase: Phase;
  answer: number | string;
}

describeWithCluster('PostgreSQL restarts under ten members writing (production server process)', () => {
  let cluster: ScratchCluster | undefined;
  let server: ServerProcess | undefined;
  let members: SecureMember[] = [];
  let listings: number[] = [];
  const fixtures = (c: ScratchCluster): Knex => knexFactory({ client: 'pg', connection: c.url('guide'), pool: { min: 0, max: 1 } });

  beforeAll(async () => {
    cluster = await startScratchCluster();
    await cluster.createDatabase('guide');
    server = await startProductionServerProcess({ databaseUrl: cluster.url('guide') }); // it migrates
    const db = fixtures(cluster);
    try {
      const typeId = await createListingType(db);
      const inserted = await db.raw(
        `insert into listings (name, slug, address, latitude, longitude, type_id)
         select 'Restart place ' || n, 'restart-place-' || n, n || ' Queen St W', 43.65, -79.39, ? from generate_series(1, ?) n
         returning id`,
        [typeId, MEMBERS * LISTINGS_PER_MEMBER],
      );
      listings = inserted.rows.map((r: { id: number }) => Number(r.id));
    } finally {
      await db.destroy(); // no connection of the test's own across the restart
    }
    members = await Promise.all(Array.from({ length: MEMBERS }, () => signUpSecure(server!.port)));
  });

  afterAll(async () => {
    await server?.dispose();
    await cluster?.dispose();
  });

  test('503 during the outage, /healthz back soon after, no acknowledged write lost, members still signed in', async () => {
    const port = server!.port;
    let phase: Phase = 'before';
    let stop = false;
    const writes: Write[] = [];
    const acknowledged = (member: number, since?: Phase) =>
      writes.filter((w) => w.member === member && typeof w.answer === 'number' && w.answer >= 200 && w.answer < 300 && (!since || w.phase === since)).length;

    /** One request's status, or why there was none: a dropped connection or a hang. */
    const answerOf = (pathname: string, opts: Parameters<typeof httpRequest>[2]): Promise<number | string> => {
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer in ${HANG_MS} ms`), HANG_MS)));
      const answer = httpRequest(port, pathname, opts).then(
        (r) => r.status,
        (err: NodeJS.ErrnoException) => `dropped: ${err.code ?? err.message}`,
      );
      return Promise.race([answer, hang]).finally(() => clearTimeout(timer));
    };
    const send = (member: number, table: Write['table'], listing: number) =>
      answerOf(`/api/v2/${table}/`, { method: 'POST', headers: members[member].jsonHeaders, body: JSON.stringify({ listing }) });

    // A load balancer's probe of /healthz all along, as an operator's would be.
    const probes: (number | string)[] = [];
    const prober = (async () => {
      for (let sent = 0; !stop && sent < 20_000; sent++) {
        const answer = await answerOf('/healthz', {});
        probes.push(answer);
        if (typeof answer === 'string') return;
      }
    })();

    // Each member saves its own places one after another, a favourite then a to-do; a write
    // answered 503 is sent again at once (a client would wait its Retry-After first).
    const worker = async (member: number) => {
      const mine = listings.slice(member * LISTINGS_PER_MEMBER, (member + 1) * LISTINGS_PER_MEMBER);
      let k = 0;
      for (let sent = 0; !stop && k < mine.length * 2 && sent < 20_000; sent++) {
        const table = k % 2 === 0 ? 'favourites' : 'todos';
        const listing = mine[k >> 1];
        const startedIn = phase;
        const answer = await send(member, table, listing);
        writes.push({ member, table, listing, phase: startedIn === phase ? phase : 'outage', answer });
        if (typeof answer === 'string') return; // a hang or a dropped connection: the test fails on it
        if (answer !== 503) k++;
      }
    };
    const workers = Promise.all(members.map((_, i) => worker(i)));

    try {
      await waitFor('each member to have 3 writes acknowledged', () => members.every((_, i) => acknowledged(i) >= 3), WAIT_MS);
      phase = 'outage';
      await cluster!.restart(); // resolves once the new server accepts connections
      // Measured at well under a second: the bound is generous, far under what a stuck pool takes.
      await waitFor(
        '/healthz to answer 200 after the restart',
        () => httpRequest(port, '/healthz').then((r) => r.status === 200, () => false),
        HEALTHZ_BACK_MS,
      );
      phase = 'after';
      await waitFor('each member to have 3 more writes acknowledged after the restart', () => members.every((_, i) => acknowledged(i, 'after') >= 3), WAIT_MS);
    } finally {
      stop = true;
      await Promise.all([workers, prober]);
    }

    const answers = writes.map((w) => w.answer);
    expect(answers.filter((a) => !(typeof a === 'number' && ((a >= 200 && a < 300) || a === 503)))).toEqual([]); // no 500, hang or drop
    expect(writes.filter((w) => w.phase === 'outage' && w.answer === 503).length).toBeGreaterThan(0); // the load did meet the outage
    expect(writes.filter((w) => w.phase !== 'outage' && w.answer === 503)).toEqual([]);
    expect(probes.filter((a) => a !== 200 && a !== 503)).toEqual([]);

    // Every write answered 2xx is in the database.
    const db = fixtures(cluster!);
    try {
      for (const table of ['favourites', 'todos'] as const) {
        const rows: { email: string; listing_id: number }[] = await db(`${table} as s`).join('profiles as p', 'p.id', 's.profile_id').select('p.email', 's.listing_id');
        const kept = new Set(rows.map((r) => `${r.email} ${Number(r.listing_id)}`));
        const lost = writes
          .filter((w) => w.table === table && typeof w.answer === 'number' && w.answer >= 200 && w.answer < 300)
          .map((w) => `${members[w.member].email} ${w.listing}`)
          .filter((key) => !kept.has(key));
        expect({ table, lost }).toEqual({ table, lost: [] });
      }
    } finally {
      await db.destroy();
    }

    // The sessions outlived the restart: every member is still signed in.
    for (const member of members) {
      const me = await httpRequest(port, '/api/v2/profiles/me/', { headers: member.headers });
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body).email).toBe(member.email);
    }
    expect(server!.child.exitCode).toBeNull();
    expect(server!.output()).not.toMatch(/unhandled promise rejection|uncaught/i);
  });
});
