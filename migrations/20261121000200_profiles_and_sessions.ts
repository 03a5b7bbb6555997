import type { Knex } from 'knex';
import { ownedByMember } from './helpers';

const NEWSLETTERS = ['news', 'events', 'foods', 'real_estate', 'travel', 'photo_challenge_alerts', 'promotions', 'contests'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('profiles', (t) => {
    t.increments('id');
    t.string('email', 255).notNullable();
    t.text('password_hash'); // null for members who only sign in through Apple or Facebook
    t.string('full_name', 50).notNullable().defaultTo('');
    t.string('first_name', 50).notNullable().defaultTo('');
    t.string('last_name', 50).notNullable().defaultTo('');
    t.text('avatar'); // storage key of the uploaded profile photo
    t.boolean('is_staff').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('sync_bookmarked_events_to_google_calendar'); // true, false or unset (null)
    for (const n of NEWSLETTERS) t.boolean(`settings_receive_newsletter_${n}`).notNullable().defaultTo(false);
    t.string('apple_sub', 255).unique();
    t.string('facebook_id', 255).unique();
    t.string('ics_token', 64).unique(); // private calendar feed; revocable by replacing it
    t.jsonb('last_updates').notNullable().defaultTo('{}'); // kind -> ISO time of the last change
    t.timestamp('date_joined', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_login', { useTz: true });
  });
  // Emails are stored lower-cased; the unique index makes "one account per address" a rule.
  await knex.raw('CREATE UNIQUE INDEX profiles_email_lower ON profiles (lower(email))');

  // express-session's store (server/apps/accounts/session-store-queries.ts) reads and writes this table.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.json('sess').notNullable();
    t.timestamp('expired', { useTz: true }).notNullable().index();
  });

  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.increments('id');
    ownedByMember(t);
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the token mailed out
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['profile_id']);
  });

  await knex.schema.createTable('calendar_credentials', (t) => {
    t.integer('profile_id').primary().references('id').inTable('profiles').onDelete('CASCADE');
    t.string('provider', 32).notNullable().defaultTo('google');
    t.text('access_token_enc').notNullable(); // encrypted at rest (AES-256-GCM)
    t.text('refresh_token_enc');
    t.timestamp('expires_at', { useTz: true });
    t.text('scope');
    t.string('calendar_id', 255).notNullable().defaultTo('primary');
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}
