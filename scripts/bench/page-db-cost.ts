// What a page that misses the page cache costs the database: each path is rendered twice by
// the real app in-process (a fresh app: section caches cold, then warm), its Server-Timing `db`
// entry printed, and each statement it ran EXPLAIN ANALYZEd 7 times (median planning and
// execution time, as PostgreSQL measures them, without the round trips).
//
//   DATABASE_URL=postgres://root@127.0.0.1:5432/guide_demo npx tsx scripts/bench/page-db-cost.ts / /restaurants/ /news/
import request from 'supertest';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { createApp } from '../../server/app';
import { buildAppContext, droppedMail } from '../../server/app-context';

const EXPLAIN_RUNS = 7;

async function main() {
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent', SERVER_TIMING: 'true' });
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL to a seeded PostgreSQL database (EXPLAIN ANALYZE is PostgreSQL).');
  const handle = await openDatabase({ databaseUrl: config.databaseUrl });
  const { db } = handle;
  const ctx = buildAppContext(config, handle, { mailer: droppedMail });
  const seen: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  db.on('query', (q: { sql: string; bindings: readonly unknown[] }) => seen.push(q));
  try {
    for (const path of process.argv.slice(2)) {
      const app = createApp(ctx, { watchManifest: false });
      for (const state of ['cold', 'warm']) {
        seen.length = 0;
        const res = await request(app).get(path);
        const ran = [...seen];
        const lines: string[] = [];
        let total = 0;
        for (const q of ran) {
          const samples: Array<{ plan: number; exec: number }> = [];
          for (let i = 0; i < EXPLAIN_RUNS; i++) {
            const r = await db.raw(`explain (analyze, buffers, format json) ${q.sql.replace(/\$\d+/g, '?')}`, q.bindings as never);
            const plan = (r.rows as Array<{ 'QUERY PLAN': Array<{ 'Planning Time': number; 'Execution Time': number }> }>)[0]['QUERY PLAN'][0];
            samples.push({ plan: plan['Planning Time'], exec: plan['Execution Time'] });
          }
          samples.sort((a, b) => a.plan + a.exec - (b.plan + b.exec));
          const { plan, exec } = samples[Math.floor(EXPLAIN_RUNS / 2)];
          total += plan + exec;
          lines.push(`    plan ${plan.toFixed(2)} ms, run ${exec.toFixed(2)} ms  ${q.sql.replace(/\s+/g, ' ').slice(0, 100)}`);
        }
        console.log(`${path} ${state}: ${res.status}, Server-Timing ${res.headers['server-timing']}; in PostgreSQL ${total.toFixed(2)} ms (plan + run)`);
        if (lines.length) console.log(lines.join('\n'));
      }
    }
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
