import type { Knex } from 'knex';

// A member's request to delete their account (one row per member). A member with a password
// confirms by re-entering it and the row starts `scheduled` at once; one who signs in only
// through Facebook or Apple confirms from an emailed link first (`confirm_token_hash`, the row
// has no `requested_at` until then). Scheduled: the profile is inactive, `purge_after` is
// requested_at + 7 days, and the undo link (`undo_token_hash`) restores it until then. The purge
// deletes the profile, and this row goes with it. Tokens are stored as sha256 only, as
// password_reset_tokens are.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_deletions', (t) => {
    t.increments('id');
    t.integer('profile_id').notNullable().unique().references('id').inTable('profiles').onDelete('CASCADE');
    t.string('content', 16).notNullable(); // what becomes of their photos and submitted events
    t.string('confirm_token_hash', 64).unique();
    t.timestamp('confirm_expires_at', { useTz: true });
    t.string('undo_token_hash', 64).unique();
    t.timestamp('requested_at', { useTz: true });
    t.timestamp('purge_after', { useTz: true });
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("ALTER TABLE account_deletions ADD CONSTRAINT account_deletions_content_check CHECK (content IN ('remove', 'anonymise'))");
  await knex.raw('CREATE INDEX account_deletions_purge_after ON account_deletions (purge_after) WHERE purge_after IS NOT NULL');
}
