import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('guest_newsletter_subscriptions', (t) => {
    t.increments('id');
    t.string('email', 255).notNullable();
    for (const n of ['news', 'foods', 'events', 'promotions', 'contests', 'real_estate', 'travel']) {
      t.boolean(n).notNullable().defaultTo(false);
    }
    t.string('unsubscribe_token', 64).notNullable().unique();
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX guest_newsletter_subscriptions_email ON guest_newsletter_subscriptions (lower(email))');

  await knex.schema.createTable('contact_messages', (t) => {
    t.increments('id');
    t.string('question_category', 50).notNullable();
    t.string('comment', 600).notNullable();
    t.string('name', 255).notNullable();
    t.string('email', 255).notNullable();
    t.string('business_name', 255).notNullable().defaultTo('');
    t.string('phone_number', 50).notNullable().defaultTo('');
    t.integer('profile_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('ip', 64).notNullable().defaultTo('');
    t.timestamp('emailed_at', { useTz: true });
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['date_created']);
  });
}
