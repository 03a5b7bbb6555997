import type { Knex } from 'knex';

// Rate-limit counters shared by every process of a deployment (server/http/rate-limit-store.ts):
// one row per limiter and client, counting hits until reset_at. Expired rows are swept by
// reset_at, hence its index.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.text('key').primary();
    t.integer('hits').notNullable();
    t.timestamp('reset_at', { useTz: true }).notNullable();
    t.index(['reset_at']);
  });
}
