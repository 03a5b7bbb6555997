import type { Knex } from 'knex';

// The job queue's tables (server/jobs/queue.ts, issues 37 and 40): pg-boss's schema `pgboss`,
// made from the library's own construction script. pg-boss would create it at its first start
// too (migrate: true); doing it here instead, measured:
// - creating it costs about 190 ms on PGlite (110 ms on PostgreSQL) and a start on an installed
//   schema about 10 ms, so the test snapshot, which holds the schema, spares every test file
//   that touches the queue the creation;
// - after `npm run migrate` the schema exists before any process starts, so a process that only
//   sends jobs never installs it, and backups and restores carry it like any other table.
// A later pg-boss migrates its own schema at start (its version table says where it is), and a
// fresh database running this file with a later pg-boss gets that version's schema directly.
// Nothing of the app is imported: the schema name is written here, as a landed migration's must.
// The script runs in this migration's transaction: pg-boss wraps it in BEGIN; … COMMIT;, which
// would end knex's transaction, so that wrapper is taken off (its SET LOCALs and advisory lock
// stay and hold until knex commits).
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw(`SELECT to_regclass('pgboss.version')::text AS installed`);
  if (rows[0]?.installed) return; // a pg-boss start already installed it
  const { default: PgBoss } = await import('pg-boss');
  const plan = PgBoss.getConstructionPlans('pgboss');
  const body = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(plan)?.[1];
  if (!body) throw new Error('pg-boss construction script: expected BEGIN; … COMMIT; around it');
  // Several statements in one text: PGlite's exec() runs them, pg's Client runs a text without
  // values over the simple protocol. knex's transaction client answers the transaction's connection.
  const conn = (await knex.client.acquireConnection()) as { exec?(sql: string): Promise<unknown>; query(sql: string): Promise<unknown> };
  try {
    await (typeof conn.exec === 'function' ? conn.exec(body) : conn.query(body));
  } finally {
    await knex.client.releaseConnection(conn);
  }
}
