import type { Knex } from 'knex';
import { ownedByMember } from './helpers';

// Each successful sign-in of a member: when, from which address (as the app sees it, behind
// the trusted proxies), with which browser and which way (password, facebook, apple). Members
// download it with their data; the accounts app keeps only the newest rows (login-history.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_history', (t) => {
    t.bigIncrements('id');
    ownedByMember(t);
    t.timestamp('logged_in_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('ip', 64).notNullable().defaultTo('');
    t.string('user_agent', 512).notNullable().defaultTo('');
    t.string('method', 16).notNullable();
  });
  await knex.raw("ALTER TABLE login_history ADD CONSTRAINT login_history_method CHECK (method IN ('password', 'facebook', 'apple'))");
  await knex.raw('CREATE INDEX login_history_profile_time ON login_history (profile_id, logged_in_at DESC, id DESC)');
}
