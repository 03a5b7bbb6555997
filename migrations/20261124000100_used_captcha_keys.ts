import type { Knex } from 'knex';

// Contact captcha keys already answered (server/apps/contact/used-captcha-key-queries.ts), shared by
// every process so a key is accepted once per deployment. A key is only worth remembering
// until it would have expired anyway: rows are swept by expires_at, hence its index.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('used_captcha_keys', (t) => {
    t.text('key').primary();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}
