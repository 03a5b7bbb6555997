import knexFactory from 'knex';
import { PG_TEMPLATE_ENV, testDatabaseUrl } from '../server/testing/test-db';

export default async function globalTeardown(): Promise<void> {
  const url = testDatabaseUrl();
  const template = process.env[PG_TEMPLATE_ENV];
  if (!url || !template) return;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [template]);
  } finally {
    await admin.destroy();
  }
}
