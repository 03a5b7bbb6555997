import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { openDatabase, type DbHandle } from '../db';

// Each test file gets its own fresh, migrated database without paying for the migrations:
// on PGlite it loads the data directory that global setup dumped; on PostgreSQL
// (TEST_DATABASE_URL) it copies the template database that global setup migrated.

export const TEST_CACHE_DIR = path.resolve(__dirname, '..', '..', '.test-cache');
export const PGLITE_SNAPSHOT = path.join(TEST_CACHE_DIR, 'pglite-migrated.tar.gz');
/** Set by global setup for this run's workers (a file would be shared by concurrent runs). */
export const PG_TEMPLATE_ENV = 'GUIDE_TEST_PG_TEMPLATE';

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function openTestDatabase(): Promise<DbHandle> {
  const url = testDatabaseUrl();
  if (!url) {
    const snapshot = fs.readFileSync(PGLITE_SNAPSHOT);
    return openDatabase({ loadDataDir: new Blob([snapshot]) });
  }
  const template = process.env[PG_TEMPLATE_ENV];
  if (!template) throw new Error(`${PG_TEMPLATE_ENV} is not set: run the tests through jest (global setup makes the template)`);
  const name = `guide_t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('CREATE DATABASE ?? TEMPLATE ??', [name, template]);
  } finally {
    await admin.destroy();
  }
  const handle = await openDatabase({ databaseUrl: withDatabase(url, name), poolMax: 5 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const drop = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      try {
        await drop.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      } finally {
        await drop.destroy();
      }
    },
  };
}
