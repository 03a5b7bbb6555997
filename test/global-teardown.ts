import fs from 'node:fs';
import knexFactory from 'knex';
import { PG_TEMPLATE_FILE, testDatabaseUrl } from '../server/testing/test-db';

export default async function globalTeardown(): Promise<void> {
  const url = testDatabaseUrl();
  if (!url || !fs.existsSync(PG_TEMPLATE_FILE)) return;
  const template = fs.readFileSync(PG_TEMPLATE_FILE, 'utf8').trim();
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [template]);
  } finally {
    await admin.destroy();
    fs.rmSync(PG_TEMPLATE_FILE, { force: true });
  }
}
