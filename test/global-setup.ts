import fs from 'node:fs';
import knexFactory from 'knex';
import { openDatabase } from '../server/db';
import { migrateLatest } from '../server/db/migrate';
import { PGLITE_SNAPSHOT, PG_TEMPLATE_ENV, TEST_CACHE_DIR, testDatabaseUrl, withDatabase } from '../server/testing/test-db';

// Migrate once per run. PGlite: dump the migrated data directory for each test file to load.
// PostgreSQL: a migrated template database that each test file copies.
export default async function globalSetup(): Promise<void> {
  fs.mkdirSync(TEST_CACHE_DIR, { recursive: true });
  const url = testDatabaseUrl();
  const t0 = Date.now();
  if (!url) {
    const handle = await openDatabase({ inMemory: true });
    await migrateLatest(handle.db);
    const pglite = (await handle.db.client.acquireConnection()) as { dumpDataDir(c: 'gzip'): Promise<Blob> };
    const blob = await pglite.dumpDataDir('gzip');
    await handle.db.client.releaseConnection(pglite);
    // Written then renamed, so a concurrent run never loads half a file.
    const tmp = `${PGLITE_SNAPSHOT}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, PGLITE_SNAPSHOT);
    await handle.close();
  } else {
    const template = `guide_tmpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [template]);
    await admin.raw('CREATE DATABASE ??', [template]);
    await admin.destroy();
    const handle = await openDatabase({ databaseUrl: withDatabase(url, template) });
    await migrateLatest(handle.db);
    await handle.close();
    process.env[PG_TEMPLATE_ENV] = template; // inherited by the workers jest starts next
  }
  if (process.env.JEST_VERBOSE_SETUP) console.log(`\nmigrated test database in ${Date.now() - t0} ms`);
}
