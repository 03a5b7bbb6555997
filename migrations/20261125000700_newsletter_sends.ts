import type { Knex } from 'knex';

// One row per issue of a newsletter sent (send-newsletter.ts): which issue (a hash of its
// subject and items), how far the send got through members and guests (by id), and a lease
// while a send runs. Running `newsletters:send` again for the same issue sends nothing; after
// a crash it carries on after the last recipient done; two at once do not both send. No
// personal data: recipients are positions in id order, not addresses.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('newsletter_sends', (t) => {
    t.increments('id');
    t.string('type', 32).notNullable();
    t.string('issue_key', 64).notNullable();
    t.text('subject').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('running_until', { useTz: true }).nullable();
    t.integer('member_cursor').notNullable().defaultTo(0);
    t.integer('guest_cursor').notNullable().defaultTo(0);
    t.integer('sent').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.unique(['type', 'issue_key']);
  });
}

