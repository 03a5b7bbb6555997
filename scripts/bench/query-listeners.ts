// npx tsx scripts/bench/query-listeners.ts
// What timing each query costs the process: knex's query and query-response events fired on a
// knex instance with no database, 200,000 a round, with the listeners of server/db/query-stats.ts
// set up as each configuration sets them (production default: the slow-query log only; the bench
// server: Server-Timing too; figures on: the histogram too). Prints the median of 7 rounds.
import { performance } from 'node:perf_hooks';
import knexFactory from 'knex';
import type { Db } from '../../server/db';
import { measureQueries, timeQueries, trackQueries } from '../../server/db/query-stats';

const N = 200_000;
const ROUNDS = 7;
const logger = { warn: () => undefined };
const sql = 'select "a"."id" from "articles" as "a" where "a"."status" = ? limit ?';

const variants: Array<{ name: string; setup: (db: Db) => void; inUnit: boolean }> = [
  { name: 'no listeners (the events alone)', setup: () => undefined, inUnit: false },
  { name: 'production default (slow-query log only)', setup: (db) => timeQueries(db, { logger, slowMs: 100 }), inUnit: false },
  {
    name: 'Server-Timing on, figures off',
    setup: (db) => {
      timeQueries(db, { logger, slowMs: 100 });
      trackQueries(db);
    },
    inUnit: true,
  },
  {
    name: 'Server-Timing and figures on',
    setup: (db) => {
      timeQueries(db, { logger, slowMs: 100, observe: () => undefined });
      trackQueries(db);
    },
    inUnit: true,
  },
];

async function main(): Promise<void> {
  const uids = Array.from({ length: N }, (_, i) => `uid-${i}-${Math.random().toString(36).slice(2, 10)}`);
  for (const v of variants) {
    const db = knexFactory({ client: 'pg' }) as unknown as Db;
    v.setup(db);
    const run = () => {
      for (let i = 0; i < N; i++) {
        const q = { __knexUid: 'c1', __knexQueryUid: uids[i], sql, bindings: ['published', 10] };
        db.emit('query', q);
        db.emit('query-response', [], q, undefined);
      }
    };
    const once = () => (v.inUnit ? measureQueries(() => run()) : run());
    once(); // warm-up
    const ns: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      once();
      ns.push(((performance.now() - t0) * 1e6) / N);
    }
    ns.sort((a, b) => a - b);
    console.log(`${v.name}: median ${ns[ROUNDS >> 1].toFixed(0)} ns/query (min ${ns[0].toFixed(0)}, max ${ns[ROUNDS - 1].toFixed(0)})`);
    await db.destroy();
  }
}

void main();
